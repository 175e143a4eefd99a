"""Seats and the direction of play (R1)."""

from __future__ import annotations

import enum


class Seat(enum.IntEnum):
    """``N``, ``E``, ``S``, ``W``; play goes clockwise N → E → S → W (R1)."""

    N = 0
    E = 1
    S = 2
    W = 3

    @staticmethod
    def parse(text: str) -> Seat:
        try:
            return Seat[text]
        except (KeyError, TypeError):
            raise ValueError(f"not a seat: {text!r} (expected one of N, E, S, W)") from None

    def next(self, steps: int = 1) -> Seat:
        """The seat ``steps`` places clockwise (R1)."""
        return SEATS[(self + steps) % 4]

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Seat.{self.name}"


SEATS: tuple[Seat, ...] = (Seat.N, Seat.E, Seat.S, Seat.W)
SEAT_NAMES: tuple[str, ...] = tuple(seat.name for seat in SEATS)  # read on every snapshot: no enum lookups


def by_seat(values) -> dict[str, object]:
    """Four per-seat values as the ``{"N": …, "E": …, "S": …, "W": …}`` of the record format."""
    return {name: values[index] for index, name in enumerate(SEAT_NAMES)}
