"""Can the seat take every trick left? (odgrywka, ``SearchOptions.best_tricks``, asked by the
search at a trick start where the answer would cut, docs/analysis.md "Three bounds".)

An exact search of the lines on which all four play for the seat and it wins every trick: R16
leaves them few choices, and ``all_from_lead`` proves which cards need trying. Compiled with the
search by mypyc (``compiled.py``).
"""

from __future__ import annotations

from typing import Final

from librt.vecs import vec
from mypy_extensions import i64

from games.engine import cards as cards_module
from games.engine.masks import RULE_ODGRYWKA, legal_mask, masters

# This module's own ``Final`` names (compiled, a C static each; see ``analysis.py``).
ABOVE: Final[vec[i64]] = vec[i64](cards_module.ABOVE)
SUIT_MASKS: Final[tuple[int, ...]] = cards_module.SUIT_MASKS


def sheds(hand: int, led: int, mine: int) -> int:
    """The cards worth trying (a mask) for a player other than the seat on a trick the seat wins
    (see ``all_from_lead``, (b)): its highest card of the led suit if it holds one, else its
    highest card of each suit the seat still holds (``mine``), else any one card."""
    follow = hand >> 13 * led & 8191
    if follow:
        return 1 << (13 * led + follow.bit_length() - 1)
    found = 0
    for shift in range(0, 52, 13):
        if mine >> shift & 8191:
            m = hand >> shift & 8191
            if m:
                found |= 1 << (shift + m.bit_length() - 1)
    return found if found else hand & -hand


def shed_all(
    mine: int, a: int, b: int, c: int, sa: int, sb: int, sc: int, s: int, cache: dict[int, bool], work: list[int]
) -> bool:
    """Whether, after one card of each of ``sa``, ``sb``, ``sc`` (masks; 0: that player has already
    played) leaves ``a``, ``b``, ``c``, the seat on lead with ``mine`` can take every trick left."""
    if mine and not masters(mine, (a | b | c) & ~(sa | sb | sc)):
        return False  # whatever they shed, the seat has no card to lead next that wins
    ma = sa
    while True:
        x = ma & -ma
        mb = sb
        while True:
            y = mb & -mb
            mc = sc
            while True:
                z = mc & -mc
                if all_from_lead(mine, a ^ x, b ^ y, c ^ z, s, cache, work):
                    return True
                mc ^= z
                if not mc:
                    break
            mb ^= y
            if not mb:
                break
        ma ^= x
        if not ma:
            break
    return False


def all_from_lead(mine: int, a: int, b: int, c: int, s: int, cache: dict[int, bool], work: list[int]) -> bool:
    """Odgrywka: whether the seat, on lead with ``mine`` against the others' ``a``, ``b``, ``c``,
    can take every trick left when all four play for it (exact).

    (a) On such a line the seat wins every trick, so it leads each one (it won the one before),
    and each card it leads is above every card of that suit the others hold: else the first of
    them holding a higher one must play a higher one (R16, nadbijanie), and a discard never
    wins. The others then follow with any card of the suit (R16: none can overtake), or, void,
    discard any card.

    (b) Only some of those cards need trying. Call B at least as good as A when B is position A
    with some of the others' cards each swapped for a lower card of its suit or for a card of a
    suit the seat no longer holds (such a suit is never led again on such a line: its cards only
    wait to be discarded), and some of the seat's for higher cards of their suit. If some line
    gives the seat every trick from A, one does from B, by induction on the tricks: in B each
    player plays the card A's line plays, or its swapped card. The seat's lead is still above the
    others' cards of its suit (theirs lower or gone, its own higher). A player following in A
    follows in B with the matching card; if that was swapped for another suit's, with another
    card of the led suit (the swap moves to that card), or, holding none, it is void and
    discards the swapped card (R16: any card of the suit is legal, none can overtake). A player
    void in A is void in B and discards the matching card. After the trick B is again at least
    as good as A. Hence the seat leads its lowest card of a suit above all the others' cards of
    it (keeping the higher ones); a player follows with its highest card of the suit (keeping the
    lower ones); a void player discards its highest card of one of the suits the seat still
    holds, or, holding none, any card (``sheds``)."""
    if not mine:
        return True
    top = masters(mine, a | b | c)
    if not top:  # the usual answer, found without the cache
        return False
    key = (mine | a | b | c) << 4 | s << 2 | s
    found = cache.get(key)
    if found is not None:
        return found
    work[0] -= 1
    if work[0] < 0:  # out of steps: not proven impossible (not kept: another call may finish it)
        return True
    result = False
    for suit in range(4):
        shift = 13 * suit
        m = top >> shift & 8191
        if not m:
            continue
        after = mine ^ (m & -m) << shift  # the lowest card of the suit above all the others'
        if shed_all(
            after, a, b, c, sheds(a, suit, after), sheds(b, suit, after), sheds(c, suit, after), s, cache, work
        ):
            result = True
            break
    cache[key] = result
    return result


def may_win_first(hands: vec[i64], turn: int, s: int) -> bool:
    """Odgrywka, another seat (``turn``) on lead: False when the seat surely cannot take both the
    first trick and the second (R16). The first: only with a card of the led suit (a discard never
    wins) above the leader's lead, so above the leader's lowest card of some suit both hold. The
    second: the seat leads it, with a card no one else can overtake; each other player has played
    one card in the first trick, so in the suit led every other player held at most one card above
    the seat's highest card of it."""
    mine = int(hands[s])
    leader = int(hands[turn])
    first = False
    for shift in range(0, 52, 13):
        m = mine >> shift & 8191
        lead = leader >> shift & 8191
        if m and lead and m.bit_length() > (lead & -lead).bit_length():
            first = True
            break
    if not first:
        return False
    for shift in range(0, 52, 13):
        m = mine >> shift & 8191
        if not m:
            continue
        top = m.bit_length()
        beaten = False
        for step in range(1, 4):
            over = int(hands[(s + step) & 3]) >> shift & 8191
            over >>= top
            if over & (over - 1):  # two cards or more above the seat's highest
                beaten = True
                break
        if not beaten:
            return True
    return False


def all_after_first(hands: vec[i64], turn: int, s: int, cache: dict[int, bool], work: list[int]) -> bool:
    """Odgrywka, another seat (``turn``) on lead: whether some first trick goes to the seat and
    leaves it able to take every trick after it (``all_from_lead``; exact).

    The seat wins the first trick only with a card of the led suit (a discard never wins), above
    every card played before it: the leader leads a suit the seat holds, under the seat's
    highest card of it (each such card is tried); the players between try every legal card
    under it (R16; void, the highest card of each suit, by ``all_from_lead`` (b) applied to the
    position after the trick), of equivalent cards one (``distinct``); the seat plays a card above
    the best one so far (R16 makes it, and it must win) such that no player after it holds a
    higher one of the suit (he would have to overtake): the lowest such card, which keeps its
    higher ones (b), while the players after it have the same choices whichever it plays: their
    ``sheds``."""
    mine = int(hands[s])
    pos = (s - turn) & 3  # the seat's place in the trick (1 to 3)
    leader = int(hands[turn])
    live = int(hands[0] | hands[1] | hands[2] | hands[3])
    played = vec[i64]([hands[0], hands[1], hands[2], hands[3]])  # the first trick's cards taken out
    for suit in range(4):
        shift = 13 * suit
        m = mine >> shift & 8191
        if not m:
            continue  # R16: a discard never wins
        # a lead under the seat's highest card of the suit, one of each run of equivalent cards
        lead = distinct(leader & ((1 << (shift + m.bit_length() - 1)) - 1) & SUIT_MASKS[suit], live)
        while lead:
            low = lead & -lead
            lead ^= low
            card = low.bit_length() - 1
            played[turn] = leader ^ low
            if first_trick(played, turn, suit, card, 1, pos, s, live, cache, work):
                return True
    return False


def distinct(cards: int, live: int) -> int:
    """``cards`` less each card whose next card up among ``live`` (its suit's, in rank order) is in
    ``cards`` too: between two such cards no one holds a card, so either is the other's equal in
    every comparison of this trick and of the tricks after it."""
    m = cards
    result = cards
    while m:
        low = m & -m
        m ^= low
        above = live & ABOVE[low.bit_length() - 1]
        if above & -above & cards:
            result ^= low
    return result


def first_trick(
    hands: vec[i64],
    turn: int,
    led: int,
    best: int,
    n: int,
    pos: int,
    s: int,
    live: int,
    cache: dict[int, bool],
    work: list[int],
) -> bool:
    """The rest of the first trick (``n`` cards played, the best so far ``best``, the seat
    ``pos``-th) and then ``all_from_lead``, as ``all_after_first`` says."""
    work[0] -= 1
    if work[0] < 0:  # out of steps: not proven impossible
        return True
    seat = (turn + n) & 3
    hand = int(hands[seat])
    if n == pos:
        higher = hand & int(ABOVE[best])
        m = higher
        while m:
            low = m & -m
            m ^= low
            card = low.bit_length() - 1
            above = ABOVE[card]
            beaten = False
            for step in range(n + 1, 4):
                if hands[(turn + step) & 3] & above:
                    beaten = True
            if beaten:
                continue
            mine = hand ^ low
            a, b, c = int(hands[(s + 1) & 3]), int(hands[(s + 2) & 3]), int(hands[(s + 3) & 3])
            # the players after the seat (``3 - n`` of them: the leader is never one) shed
            sa = sheds(a, led, mine) if n < 3 else 0
            sb = sheds(b, led, mine) if n < 2 else 0
            sc = 0
            # the lowest winning card keeps the seat's higher ones: no other is better
            return shed_all(mine, a, b, c, sa, sb, sc, s, cache, work)
        return False
    if hand >> 13 * led & 8191:  # following (R16): under the seat's highest card of the suit
        top = int(hands[s]) >> 13 * led & 8191
        under = (1 << (13 * led + top.bit_length() - 1)) - 1
        m = distinct(legal_mask(RULE_ODGRYWKA, hand, led, best, 2) & under, live)
    else:  # a discard: the highest of a suit at most
        m = 0
        for shift in range(0, 52, 13):
            suit = hand >> shift & 8191
            if suit:
                m |= 1 << (shift + suit.bit_length() - 1)
    while m:
        low = m & -m
        m ^= low
        card = low.bit_length() - 1
        hands[seat] = hand ^ low
        nbest = card if ABOVE[best] & low else best
        if first_trick(hands, turn, led, nbest, n + 1, pos, s, live, cache, work):
            hands[seat] = hand
            return True
    hands[seat] = hand
    return False
