"""Scenario tests for the rules engine, one or more per rule of RULES.md (R1–R30).

Every scenario is a scripted deal: the hands are written out card by card (``hands(...)``)
so that the situation is visible, and the plays are written trick by trick (``play(...)``).
Most hands are built so that the outcome is forced, e.g. one seat holds a whole suit and
everyone else is void in it, so it takes every trick it leads.

The named deals below are written with the first leader in the ``N`` role;
``rotated(deal, seat)`` hands the ``N`` role (and the others, clockwise) to ``seat``, so the
same card script plays out the same way whoever leads.
"""

import pytest

from games.engine import Card, MatchState, Ruleset, RuleViolation, Seat, errors, record, replay, scoring

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


# --- helpers -----------------------------------------------------------------------------------


def cards(text):
    return [Card.parse(token) for token in text.split()]


def names(text):
    return set(text.split())


def hands(*lines):
    """``hands("N: AS KS …", "E: …", "S: …", "W: …")`` → the (N, E, S, W) hands ``start_deal`` takes."""
    by_seat = {}
    for line in lines:
        seat, _, text = line.partition(":")
        by_seat[Seat.parse(seat.strip())] = tuple(cards(text))
    assert sorted(by_seat) == [N, E, S, W], "a deal needs the four hands"
    return tuple(by_seat[seat] for seat in Seat)


def rotated(deal, leader):
    """The same deal with the ``N`` role given to ``leader`` (and every role moved as far clockwise)."""
    return tuple(deal[(seat - leader) % 4] for seat in range(4))


def match(regular="R", first_dealer=W, **options):
    """A match of the given regular deals ("R O" …); first dealer W, so N leads deal 1 (R6)."""
    return MatchState.start(Ruleset.from_options({"regular_deals": regular.split(), **options}), first_dealer)


def play(state, script):
    """Play the cards of ``script`` in order; ``#`` starts a comment, so a script reads trick by trick."""
    for line in script.splitlines():
        for token in line.split("#")[0].split():
            state = state.play(Card.parse(token))
    return state


def play_out(state):
    """Finish the deal in play, each player playing his lowest legal card (used where the outcome is forced)."""
    while state.deal is not None:
        deal = state.deal
        state = state.play(deal.legal_cards(deal.to_play)[0])
    return state


def legal(state):
    deal = state.deal
    return {str(card) for card in deal.legal_cards(deal.to_play)}


def rejection(state, card, **kwargs) -> RuleViolation:
    """The violation raised by playing ``card``; the state itself is a value and stays as it was."""
    before = (state.deal.plays[:], state.deal.hands[:], state.deal.to_play) if state.deal else None
    with pytest.raises(RuleViolation) as caught:
        state.play(Card.parse(card), **kwargs)
    after = (state.deal.plays[:], state.deal.hands[:], state.deal.to_play) if state.deal else None
    assert after == before
    return caught.value


def per_seat(values):
    return dict(zip("NESW", values))


def due(state):
    """The next deal due as (number, kind letter, dealer, leader, compensating)."""
    spec = state.next_deal
    return spec.number, spec.kind.letter, spec.dealer.name, spec.leader.name, spec.compensating


def compensations(result):
    return [(c.kind.letter, c.leader.name) for c in result.compensations]


# --- the deals ---------------------------------------------------------------------------------

# Each seat holds one whole suit: the leader (N role) takes all 13 tricks whatever anyone plays.
ONE_SUIT_EACH = hands(
    "N: AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    "E: AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H",
    "S: AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
    "W: AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
)

MAX_PLAYS = " ".join(" ".join(str(card) for card in trick) for trick in zip(*ONE_SUIT_EACH))  # AS AH AD AC KS KH …

# The lead passes N → E (2D) → S (2C) → W (S's last card, 2H): everyone takes a trick.
CHAIN = hands(
    "N: AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2D",
    "E: AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2C",
    "S: AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2H",
    "W: 2S AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H",
)
CHAIN_PLAYS = """
    AS QD 3C 2S   #  1 N takes it: 2 + QD 5                       =  7
    KS JD 4C KH   #  2 N (W may only discard KH, R12b): 2+3+3+21  = 29
    2D AD 5C AH   #  3 E overtakes the 2D: 2 + AH 2               =  4
    KD 6C QH QS   #  4 E: 2 + KD 3 + QH 7 + QS 5                  = 17
    2C 7C JH JS   #  5 S overtakes the 2C: 2 + JH 5 + JS 3        = 10
    8C TH TS TD   #  6 S: 2 + 2                                   =  4
    9C 9H 9S 9D   #  7 S                                          =  4
    TC 8H 8S 8D   #  8 S                                          =  4
    JC 7H 7S 7D   #  9 S: 2 + 3 + 2                               =  7
    QC 6H 6S 6D   # 10 S: 2 + 5 + 2                               =  9
    KC 5H 5S 5D   # 11 S: 2 + 3 + 2                               =  7
    AC 4H 4S 4D   # 12 S: 2 + 2 + 9 (last tricks)                 = 13
    2H 3H 3S 3D   # 13 S holds only the 2H; W takes it: 2+2+2+9   = 15
"""  # N 36, E 21, S 58, W 15: 130


def chain_plays(first, second):
    """CHAIN played so that the N role takes ``first`` tricks, E ``second``, S the rest up to 12, W trick 13."""
    a, b = first, first + second
    assert 1 <= a < b <= 11
    spades = iter(cards("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"))
    diamonds = iter(cards("AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D"))
    clubs = iter(cards("3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"))
    hearts = iter(cards("KH AH QH JH TH 9H 8H 7H 6H 5H 4H 3H"))
    script = []
    for trick in range(1, 14):
        w = Card.parse("2S") if trick == 1 else next(hearts)
        if trick <= a:  # N leads a spade
            script += [next(spades), next(diamonds), next(clubs), w]
        elif trick == a + 1:  # N gives the lead to E
            script += [Card.parse("2D"), next(diamonds), next(clubs), w]
        elif trick <= b:  # E leads a diamond
            script += [next(diamonds), next(clubs), w, next(spades)]
        elif trick == b + 1:  # E gives the lead to S
            script += [Card.parse("2C"), next(clubs), w, next(spades)]
        elif trick <= 12:  # S leads a club
            script += [next(clubs), w, next(spades), next(diamonds)]
        else:  # S, holding only the 2H, gives the last trick to W
            script += [Card.parse("2H"), w, next(spades), next(diamonds)]
    return " ".join(str(card) for card in script)


# N holds the spades and one diamond, E the hearts: in both deals below.
SPADES_NORTH, HEARTS_EAST = "N: AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2D", "E: AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"

# E (hearts only) never takes a trick: N takes trick 1, S tricks 2–3, W the other ten.
SINGLE_ZERO = hands(
    SPADES_NORTH, HEARTS_EAST, "S: 2S AD KD QD JD TD 9D 8D 7D 6D 5D 4D 2C", "W: 3D AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C"
)
SINGLE_ZERO_PLAYS = """
    AS 2H 2S 3C   # 1 N: 2 + 2           = 4
    2D KH 4D 3D   # 2 S: 2 + 21          = 23
    AD 4C KS 3H   # 3 S: 2 + 3 + 2       = 7
    2C 5C QS 4H   # 4 W overtakes the 2C, then leads clubs to the end
"""  # N 4, S 30, W 96, E none

# E (hearts) and W (clubs) never take a trick: N takes trick 1 and S the other twelve.
DOUBLE_ZERO = hands(
    SPADES_NORTH, HEARTS_EAST, "S: 2S AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D", "W: AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"
)
DOUBLE_ZERO_PLAYS = """
    AS 2H 2S 2C   # 1 N: 2 + 2 = 4
    2D KH 3D 3C   # 2 S, who then leads diamonds to the end
"""  # N 4, S 126, E and W none

# N leads two spades, then holds nothing but hearts; E holds both KH and AH.
HEARTS_AFTER_SPADES = hands(
    "N: AS KS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH",
    "E: QS JS KH AH 2D 3D 4D 5D 6D 7D 8D 9D TD",
    "S: TS 9S 6S 5S JD QD KD AD 2C 3C 4C 5C 6C",
    "W: 8S 7S 4S 3S 2S 7C 8C 9C TC JC QC KC AC",
)

# N leads spades throughout; E, void in spades, holds KH AH 5H besides diamonds.
SPADE_RUN = hands(
    "N: AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S",
    "E: KH AH 5H AD KD QD JD TD 9D 8D 7D 6D 5D",
    "S: 2H 3H 4H 6H 7H 8H 9H TH JH QH 4D 3D 2D",
    "W: AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C",
)
E_DIAMONDS = "AD KD QD JD TD 9D 8D 7D 6D"

# An odgrywka's first tricks: spades of mixed heights in every hand.
OVERTAKING = hands(
    "N: 5S 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH AH",
    "E: 3S 7S KS AD KD QD JD TD 9D 8D 7D 6D 5D",
    "S: 2S 4S 6S 9S 4D 3D 2D AC KC QC JC TC 9C",
    "W: 8S TS JS QS AS KH 2C 3C 4C 5C 6C 7C 8C",
)


def test_the_scripted_deals_are_whole_decks():
    """R2: every deal below is 4 × 13 distinct cards."""
    for deal in (ONE_SUIT_EACH, CHAIN, SINGLE_ZERO, DOUBLE_ZERO, HEARTS_AFTER_SPADES, SPADE_RUN, OVERTAKING):
        assert sorted(card for hand in deal for card in hand) == list(range(52))


# --- R1, R2: seats and cards -----------------------------------------------------------------------


def test_play_goes_clockwise_from_north_to_west_and_back():
    """R1."""
    assert [N.next(), E.next(), S.next(), W.next()] == [E, S, W, N]
    assert N.next(3) == W
    assert Seat.parse("S") is S


def test_a_card_is_written_rank_then_suit_and_parses_back():
    """R2: `TH` is the ten of hearts; a card is 13 × suit + rank, suits S H D C, ranks 2 … A."""
    ten_of_hearts = Card.parse("TH")
    assert (ten_of_hearts.suit, ten_of_hearts.rank) == (1, 8)
    assert [int(Card.parse(c)) for c in ("2S", "AS", "2H", "QH", "AC")] == [0, 12, 13, 23, 51]
    assert all(str(Card.parse(str(Card(i)))) == str(Card(i)) for i in range(52))
    with pytest.raises(ValueError):
        Card.parse("1S")


# --- R10, R11, R13: leading and following in a rozbójnik --------------------------------------------


def test_a_heart_may_not_be_led_while_holding_spades():
    """R10."""
    state = match("R").start_deal(HEARTS_AFTER_SPADES)

    assert legal(state) == names("AS KS")
    error = rejection(state, "2H")
    assert (error.code, error.rule, error.seat) == ("hearts_lead_forbidden", "R10", N)


def test_a_player_holding_nothing_but_hearts_may_lead_any_heart():
    """R10."""
    state = play(
        match("R").start_deal(HEARTS_AFTER_SPADES),
        """
        AS QS TS 8S   # N
        KS JS 9S 7S   # N, who now holds only hearts
    """,
    )

    assert legal(state) == names("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH")
    assert play(state, "QH").deal.current_trick() == [(N, Card.parse("QH"))]


def test_a_player_holding_the_led_suit_must_follow_it_with_any_card_of_it():
    """R11."""
    state = play(match("R").start_deal(HEARTS_AFTER_SPADES), "AS")

    assert legal(state) == names("QS JS")
    error = rejection(state, "2D")
    assert (error.code, error.rule, error.seat) == ("must_follow_suit", "R11", E)
    assert play(state, "JS").deal.to_play == S  # the lower spade is as good as the higher


def test_hearts_led_are_followed_with_any_heart_even_by_the_holder_of_the_king():
    """R13: from trick 2 on, R12b would force the king on a discard, but E is following suit."""
    state = play(
        match("R").start_deal(HEARTS_AFTER_SPADES),
        """
        AS QS TS 8S
        KS JS 9S 7S
        2H            # trick 3: N leads a heart
    """,
    )

    assert legal(state) == names("KH AH")
    state = play(state, "AH")
    assert state.deal.current_trick()[-1] == (E, Card.parse("AH"))


# --- R12: discards in a rozbójnik -----------------------------------------------------------------


def test_the_king_of_hearts_may_not_be_discarded_in_the_first_trick():
    """R12a; by default (R12c king_first) any other heart may be discarded."""
    state = play(match("R").start_deal(SPADE_RUN), "AS")

    assert legal(state) == names(E_DIAMONDS + " 5D AH 5H")
    error = rejection(state, "KH")
    assert (error.code, error.rule, error.seat) == ("king_of_hearts_first_trick", "R12a", E)
    play(state, "5H")


def test_from_the_second_trick_a_heart_discarded_by_the_holder_of_the_king_must_be_the_king():
    """R12b: E may still discard a diamond; if a heart, then the king."""
    state = play(
        match("R").start_deal(SPADE_RUN),
        """
        AS 5D 2D 2C   # trick 1: N
        KS            # trick 2
    """,
    )

    assert legal(state) == names(E_DIAMONDS + " KH")
    for heart in ("AH", "5H"):
        error = rejection(state, heart)
        assert (error.code, error.rule) == ("king_of_hearts_first", "R12b")
    play(state, "KH")
    play(state, "AD")


def test_by_default_the_other_hearts_are_discarded_in_any_order():
    """R12c, option heart_discard: king_first (the default)."""
    state = play(
        match("R").start_deal(SPADE_RUN),
        """
        AS 5D 2D 2C
        KS KH 3D 3C   # E has discarded the king
        QS
    """,
    )

    assert legal(state) == names(E_DIAMONDS + " AH 5H")


def test_with_descending_discards_hearts_go_highest_first():
    """R12c, option heart_discard: descending; R30 puts R12a and R12b before R12c."""
    state = play(match("R", heart_discard="descending").start_deal(SPADE_RUN), "AS")

    # trick 1: the highest heart other than the king
    assert legal(state) == names(E_DIAMONDS + " 5D AH")
    assert (rejection(state, "5H").code, rejection(state, "5H").rule) == ("highest_heart_first", "R12c")
    assert rejection(state, "KH").code == "king_of_hearts_first_trick"

    state = play(state, "5D 2D 2C  KS")  # trick 2: the king first
    assert legal(state) == names(E_DIAMONDS + " KH")
    assert rejection(state, "AH").code == "king_of_hearts_first"

    state = play(state, "KH 3D 3C  QS")  # trick 3: then the ace
    assert legal(state) == names(E_DIAMONDS + " AH")
    assert rejection(state, "5H").code == "highest_heart_first"


def test_with_descending_discards_the_next_player_without_the_king_discards_his_highest_heart():
    """R12c: S, void in spades, holds hearts up to the queen."""
    state = play(match("R", heart_discard="descending").start_deal(SPADE_RUN), "AS 5D")

    assert legal(state) == names("4D 3D 2D QH")
    assert rejection(state, "JH").code == "highest_heart_first"


# --- R14, R15: rozbójnik penalties ---------------------------------------------------------------


def test_the_worked_example_west_takes_trick_13_with_kh_2h_qs_5d_for_39():
    """R14 worked example: 2 + 2 + 2 + 5 + 3 + 16 + 9 = 39."""
    assert scoring.trick_penalty(cards("KH 2H QS 5D"), 13, (12, 13)) == 39
    assert scoring.trick_penalty(cards("KH 2H QS 5D"), 5, (12, 13)) == 30  # not a last trick
    assert scoring.trick_penalty(cards("2S 3S 4S 5S"), 1, (12, 13)) == 2  # a trick alone costs 2


def test_each_card_costs_what_r14_says():
    """R14: 2 per heart, 5 per queen, 3 per king and jack, the king of hearts 2 + 3 + 16 = 21."""
    assert [scoring.CARD_PENALTY[c] for c in cards("2H AH QS JD KC KH 9C")] == [2, 2, 5, 3, 3, 21, 0]
    assert sum(scoring.CARD_PENALTY) + 13 * 2 + 2 * 9 == 130


def test_a_rozbojnik_in_which_everyone_takes_a_trick_scores_the_penalties_taken():
    """R14: N 7 + 29, E 4 + 17, S 58, W 15 — together 130; nobody took no trick, so ×1 (R20)."""
    state = play(match("R").start_deal(CHAIN), CHAIN_PLAYS)

    [deal] = state.results
    assert per_seat(deal.tricks) == {"N": 2, "E": 2, "S": 8, "W": 1}
    assert per_seat(deal.points) == {"N": -36, "E": -21, "S": -58, "W": -15}
    assert sum(deal.points) == -130
    assert (deal.multiplier, deal.kreski, deal.compensations) == (1, (0, 0, 0, 0), ())
    assert [str(winner) for winner, _ in deal.final.completed_tricks()] == list("NNEESSSSSSSSW")


@pytest.mark.parametrize(
    "last_tricks, points",
    [
        ([12, 13], {"N": -36, "E": -21, "S": -58, "W": -15}),
        ([7, 13], {"N": -36, "E": -21, "S": -58, "W": -15}),  # classic Kierki: S took both 7 and 12
        ([1, 13], {"N": -45, "E": -21, "S": -49, "W": -15}),  # the 9 moves from S's trick 12 to N's trick 1
        ([3, 12], {"N": -36, "E": -30, "S": -58, "W": -6}),  # and from W's trick 13 to E's trick 3
    ],
)
def test_the_two_last_tricks_cost_9_each_and_are_a_ruleset_option(last_tricks, points):
    """R15."""
    state = play(match("R", last_tricks=last_tricks).start_deal(CHAIN), CHAIN_PLAYS)

    assert per_seat(state.results[0].points) == points


# --- R16, R17: the odgrywka ----------------------------------------------------------------------


def test_any_card_may_be_led_in_an_odgrywka_hearts_included():
    """R16 (R10 is a rozbójnik rule)."""
    state = match("O").start_deal(OVERTAKING)

    assert legal(state) == {str(card) for card in OVERTAKING[N]}


def test_in_an_odgrywka_a_player_must_follow_suit_and_overtake_if_he_can():
    """R16: follow suit; holding a higher card of the led suit, play a higher one (any)."""
    state = play(match("O").start_deal(OVERTAKING), "5S")

    assert legal(state) == names("7S KS")
    overtake, follow = rejection(state, "3S"), rejection(state, "5D")
    assert (overtake.code, overtake.rule, overtake.seat) == ("must_overtake", "R16", E)
    assert (follow.code, follow.rule) == ("must_follow_suit", "R16")


def test_nadbijanie_means_beating_the_highest_card_in_the_trick_not_the_card_led():
    """R16: after 5S 7S, S's 6S beats the card led but not the 7S, so S must play the 9S."""
    state = play(match("O").start_deal(OVERTAKING), "5S 7S")

    assert legal(state) == names("9S")
    assert rejection(state, "6S").code == "must_overtake"
    state = play(state, "9S")
    assert legal(state) == names("TS JS QS AS")


def test_a_player_who_cannot_overtake_plays_any_card_of_the_suit_and_a_void_one_any_card():
    """R16."""
    state = play(
        match("O").start_deal(OVERTAKING),
        """
        5S 7S 9S AS   # W takes trick 1
        QS            # trick 2
    """,
    )

    assert legal(state) == {str(card) for card in OVERTAKING[N]} - {"5S"}  # N is void in spades
    state = play(state, "2H KS")
    assert legal(state) == names("2S 4S 6S")  # nothing of S's beats the king


def test_an_odgrywka_pays_10_a_trick():
    """R17: N 2, E 2, S 8, W 1 tricks — 130 before multipliers."""
    state = play(match("O").start_deal(CHAIN), CHAIN_PLAYS)

    [deal] = state.results
    assert per_seat(deal.points) == {"N": 20, "E": 20, "S": 80, "W": 10}
    assert (deal.multiplier, deal.kreski, deal.compensations) == (1, (0, 0, 0, 0), ())


# --- R20–R25: zero tricks, Max, compensating deals ---------------------------------------------------


def test_one_player_without_a_trick_in_a_rozbojnik_gets_a_kreska_and_the_others_pay_double():
    """R20, k = 1: raw N 4, S 30, W 96 → ×2; one compensating odgrywka, led by E (R24, R25)."""
    state = play_out(play(match("R O").start_deal(SINGLE_ZERO), SINGLE_ZERO_PLAYS))

    [deal] = state.results
    assert per_seat(deal.tricks) == {"N": 1, "E": 0, "S": 2, "W": 10}
    assert per_seat(deal.points) == {"N": -8, "E": 0, "S": -60, "W": -192}
    assert per_seat(deal.kreski) == {"N": 0, "E": 1, "S": 0, "W": 0}
    assert deal.multiplier == 2
    assert compensations(deal) == [("O", "E")]
    assert due(state) == (2, "O", "N", "E", True)


def test_two_players_without_a_trick_in_a_rozbojnik_get_a_kreska_each_and_the_others_pay_triple():
    """R20, k = 2: raw N 4, S 126 → ×3; two compensating odgrywki led by E and W."""
    state = play_out(play(match("R O").start_deal(DOUBLE_ZERO), DOUBLE_ZERO_PLAYS))

    [deal] = state.results
    assert per_seat(deal.points) == {"N": -12, "E": 0, "S": -378, "W": 0}
    assert per_seat(deal.kreski) == {"N": 0, "E": 1, "S": 0, "W": 1}
    assert deal.multiplier == 3
    assert compensations(deal) == [("O", "E"), ("O", "W")]


def test_max_gives_its_taker_two_kreski_and_the_others_minus_130():
    """R21: N takes all 13 tricks; two compensating odgrywki, both led by N (R23, R25)."""
    state = play_out(match("R O").start_deal(ONE_SUIT_EACH))

    [deal] = state.results
    assert per_seat(deal.tricks) == {"N": 13, "E": 0, "S": 0, "W": 0}
    assert per_seat(deal.points) == {"N": 0, "E": -130, "S": -130, "W": -130}
    assert per_seat(deal.kreski) == {"N": 2, "E": 0, "S": 0, "W": 0}
    assert deal.multiplier == 3
    assert compensations(deal) == [("O", "N"), ("O", "N")]
    assert due(state) == (2, "O", "N", "N", True)  # led by N, not by E left of the dealer


def test_one_player_without_a_trick_in_an_odgrywka_doubles_the_others():
    """R22, k = 1: E gets 0 and no kreska; one compensating rozbójnik led by E."""
    state = play_out(play(match("O R").start_deal(SINGLE_ZERO), SINGLE_ZERO_PLAYS))

    [deal] = state.results
    assert per_seat(deal.points) == {"N": 20, "E": 0, "S": 40, "W": 200}
    assert (deal.multiplier, deal.kreski) == (2, (0, 0, 0, 0))
    assert compensations(deal) == [("R", "E")]


def test_two_players_without_a_trick_in_an_odgrywka_triple_the_others():
    """R22, k = 2."""
    state = play_out(play(match("O R").start_deal(DOUBLE_ZERO), DOUBLE_ZERO_PLAYS))

    [deal] = state.results
    assert per_seat(deal.points) == {"N": 30, "E": 0, "S": 360, "W": 0}
    assert (deal.multiplier, deal.kreski) == (3, (0, 0, 0, 0))
    assert compensations(deal) == [("R", "E"), ("R", "W")]


def test_one_player_taking_every_trick_of_an_odgrywka_quadruples_his_points():
    """R22, k = 3: ×4 — and, unlike Max, no kreski; three compensating rozbójniki."""
    state = play_out(match("O R").start_deal(ONE_SUIT_EACH))

    [deal] = state.results
    assert per_seat(deal.points) == {"N": 520, "E": 0, "S": 0, "W": 0}
    assert (deal.multiplier, deal.kreski) == (4, (0, 0, 0, 0))
    assert compensations(deal) == [("R", "E"), ("R", "S"), ("R", "W")]


def test_compensating_deals_are_ordered_clockwise_from_the_first_leader_of_the_deal():
    """R23: leader E; N and S took no trick → S (next from E) first, then N; each led by its holder."""
    state = match("R O", first_dealer=N).start_deal(rotated(DOUBLE_ZERO, E))  # N's role goes to E
    state = play_out(play(state, DOUBLE_ZERO_PLAYS))

    assert per_seat(state.results[0].kreski) == {"N": 1, "E": 0, "S": 1, "W": 0}
    assert compensations(state.results[0]) == [("O", "S"), ("O", "N")]
    assert due(state) == (2, "O", "E", "S", True)
    state = play(state.start_deal(rotated(CHAIN, S)), CHAIN_PLAYS)
    assert due(state) == (3, "O", "S", "N", True)  # N leads, not W left of the dealer (R25)


def test_three_compensating_rozbojniki_start_from_the_seat_after_the_odgrywka_leader():
    """R23: S took all 13 tricks of the odgrywka → W, N, E."""
    state = play_out(match("O R", first_dealer=E).start_deal(rotated(ONE_SUIT_EACH, S)))

    assert compensations(state.results[0]) == [("R", "W"), ("R", "N"), ("R", "E")]


def test_a_compensating_deal_is_of_the_other_kind_and_led_by_its_designated_player():
    """R24, R25: after a rozbójnik with E trickless, an odgrywka led by E; after an odgrywka, a rozbójnik."""
    state = play_out(play(match("R R").start_deal(SINGLE_ZERO), SINGLE_ZERO_PLAYS))
    assert due(state) == (2, "O", "N", "E", True)

    state = play_out(play(match("O O").start_deal(SINGLE_ZERO), SINGLE_ZERO_PLAYS))
    assert due(state) == (2, "R", "N", "E", True)
    assert state.start_deal(rotated(CHAIN, E)).deal.to_play == E


# --- R6–R9: the match -----------------------------------------------------------------------------


def test_the_dealer_moves_clockwise_and_the_player_left_of_him_leads_a_regular_deal():
    """R5, R6: the default eight deals, R R R R O O O O; first dealer S."""
    state = MatchState.start(Ruleset.from_options({}), S)
    seen = []
    while not state.complete:
        spec = state.next_deal
        seen.append((spec.number, spec.kind.letter, spec.dealer.name, spec.leader.name, spec.compensating))
        state = play(state.start_deal(rotated(CHAIN, spec.leader)), CHAIN_PLAYS)

    assert seen == [
        (1, "R", "S", "W", False),
        (2, "R", "W", "N", False),
        (3, "R", "N", "E", False),
        (4, "R", "E", "S", False),
        (5, "O", "S", "W", False),
        (6, "O", "W", "N", False),
        (7, "O", "N", "E", False),
        (8, "O", "E", "S", False),
    ]
    assert state.next_deal is None
    assert sum(state.totals) == 0  # R8


def test_compensating_deals_required_by_a_compensating_deal_are_played_first():
    """R6, R7: the dealer counts every deal; deal 2's own compensating deal comes before regular deal 2."""
    state = match("R O", first_dealer=W)
    assert due(state) == (1, "R", "W", "N", False)

    state = play_out(play(state.start_deal(SINGLE_ZERO), SINGLE_ZERO_PLAYS))  # E takes no trick
    assert due(state) == (2, "O", "N", "E", True)

    state = play_out(play(state.start_deal(rotated(SINGLE_ZERO, E)), SINGLE_ZERO_PLAYS))  # S takes no trick
    assert compensations(state.results[-1]) == [("R", "S")]
    assert due(state) == (3, "R", "E", "S", True)

    state = play(state.start_deal(rotated(CHAIN, S)), CHAIN_PLAYS)
    assert due(state) == (4, "O", "S", "W", False)

    state = play(state.start_deal(rotated(CHAIN, W)), CHAIN_PLAYS)
    assert state.complete and state.next_deal is None
    assert [r.multiplier for r in state.results] == [2, 2, 1, 1]
    assert sum(state.totals) == 0  # R8: -260 + 260 - 130 + 130


def test_a_match_with_max_still_sums_to_zero():
    """R8, R21: Max is −390 and spawns two odgrywki; with the regular odgrywka, +390."""
    state = play_out(match("R O").start_deal(ONE_SUIT_EACH))
    for leader in (N, N, W):
        assert state.next_deal.leader == leader
        state = play(state.start_deal(rotated(CHAIN, leader)), CHAIN_PLAYS)

    assert state.complete
    assert [r.compensating for r in state.results] == [False, True, True, False]
    # deals 2 and 3 led by N: N 20, E 20, S 80, W 10; deal 4 led by W: W 20, N 20, E 80, S 10
    assert per_seat(state.totals) == {
        "N": 0 + 20 + 20 + 20,
        "E": -130 + 20 + 20 + 80,
        "S": -130 + 80 + 80 + 10,
        "W": -130 + 10 + 10 + 20,
    }
    assert sum(state.totals) == 0


def test_the_winner_is_the_player_with_the_highest_total():
    """R9: O O O with leaders N, E, S: N 110, E 50, S 120, W 110."""
    state = match("O O O")
    for leader in (N, E, S):
        assert not state.winners  # no winner before the match is over
        state = play(state.start_deal(rotated(CHAIN, leader)), CHAIN_PLAYS)

    assert per_seat(state.totals) == {"N": 110, "E": 50, "S": 120, "W": 110}
    assert state.winners == (S,)
    assert state.summary()["winners"] == ["S"]


def test_players_tied_on_the_highest_total_share_the_win_listed_n_e_s_w():
    """R9: N and W tie on 100 (tricks 9 + 1 and 1 + 9)."""
    state = match("O O")
    state = play(state.start_deal(CHAIN), chain_plays(9, 1))  # N 9, E 1, S 2, W 1
    state = play(state.start_deal(rotated(CHAIN, E)), chain_plays(1, 2))  # E 1, S 2, W 9, N 1

    assert per_seat(state.totals) == {"N": 100, "E": 20, "S": 40, "W": 100}
    assert state.winners == (N, W)
    assert state.summary()["winners"] == ["N", "W"]


def test_when_every_seat_ties_all_four_share_the_win():
    """R9: four odgrywki, each seat playing each role of CHAIN once."""
    state = match("O O O O")
    for leader in (N, E, S, W):
        state = play(state.start_deal(rotated(CHAIN, leader)), CHAIN_PLAYS)

    assert state.totals == (130, 130, 130, 130)
    assert state.summary()["winners"] == ["N", "E", "S", "W"]


# --- R26–R28: the lead right and its sale ---------------------------------------------------------


def after_max(regular="R O"):
    """A match whose next deal is a compensating odgrywka, N holding the lead (R21)."""
    return play_out(match(regular).start_deal(ONE_SUIT_EACH))


def after_odgrywka_with_e_trickless():
    """A match whose next deal is a compensating rozbójnik led by E (R22)."""
    return play_out(play(match("O R").start_deal(SINGLE_ZERO), SINGLE_ZERO_PLAYS))


@pytest.mark.parametrize("situation", ["regular rozbojnik", "regular odgrywka", "compensating rozbojnik"])
def test_the_lead_may_not_be_sold_outside_a_compensating_odgrywka(situation):
    """R26: sale_not_allowed."""
    state = {
        "regular rozbojnik": lambda: match("R").start_deal(CHAIN),
        "regular odgrywka": lambda: match("O").start_deal(CHAIN),
        "compensating rozbojnik": lambda: after_odgrywka_with_e_trickless().start_deal(rotated(CHAIN, E)),
    }[situation]()

    assert not state.deal.can_sell_lead
    with pytest.raises(errors.SaleNotAllowed) as caught:
        state.offer_lead(S, 2)
    assert (caught.value.code, caught.value.rule) == ("sale_not_allowed", "R26")
    with pytest.raises(errors.SaleNotAllowed):
        state.decide_lead(None)


def test_in_a_compensating_odgrywka_the_lead_holder_may_sell_the_lead():
    """R26: once sold, the buyer leads the first trick."""
    state = after_max().start_deal(ONE_SUIT_EACH)
    assert state.deal.can_sell_lead and state.deal.to_play == N

    state = state.offer_lead(E, 2).decide_lead(0)

    assert state.deal.sale == (E, 2)
    assert state.deal.to_play == E and not state.deal.can_sell_lead
    assert legal(state) == {str(card) for card in ONE_SUIT_EACH[E]}


@pytest.mark.parametrize(
    "buyer, price",
    [
        (N, 2),  # the seller himself
        ("N", 2),
        ("X", 2),  # not at the table
        (E, 0),
        (E, 14),
        (E, -1),  # out of 1–13
        (E, 2.5),
        (E, "2"),
        (E, True),  # not a whole number of tricks
    ],
)
def test_a_sale_to_the_seller_or_outside_the_table_or_out_of_1_to_13_is_a_bad_sale(buyer, price):
    """R26, R30: bad_sale."""
    state = after_max().start_deal(ONE_SUIT_EACH)

    with pytest.raises(errors.BadSale) as caught:
        state.offer_lead(buyer, price)
    assert (caught.value.code, caught.value.rule) == ("bad_sale", "R26")


@pytest.mark.parametrize("buyer, seat", [("X", None), ("", None), (7, None), ("N", "N"), (E, "E")])
def test_a_faulty_sales_error_names_the_buyer_only_when_he_is_a_seat(buyer, seat):
    """R26, RECORD_FORMAT 1.1: the error's seat is the buyer it names when that is a seat, else null."""
    state = after_max().start_deal(ONE_SUIT_EACH)

    with pytest.raises(errors.BadSale) as caught:
        state.offer_lead(buyer, 0 if seat == "E" else 2)
    assert caught.value.as_json()["seat"] == seat


def test_a_sale_where_none_is_allowed_names_no_seat_for_a_buyer_outside_the_table():
    """R26, RECORD_FORMAT 1.1: sale_not_allowed with a buyer that is not a seat: seat null."""
    state = match("R").start_deal(CHAIN)

    with pytest.raises(errors.SaleNotAllowed) as caught:
        state.offer_lead("Q", 2)
    assert caught.value.as_json()["seat"] is None


@pytest.mark.parametrize("price", [1, 13])
def test_prices_1_and_13_are_allowed(price):
    """R26."""
    assert after_max().start_deal(ONE_SUIT_EACH).offer_lead(W, price).deal.offers[0].price == price


def test_the_buyer_pays_ten_points_a_trick_after_the_multiplier():
    """R27: E buys for 2 and takes all 13 tricks: 130 × 4 − 20 = 500, not (130 − 20) × 4."""
    state = after_max().start_deal(rotated(ONE_SUIT_EACH, E))
    state = play_out(state.offer_lead(E, 2).decide_lead(0))

    deal = state.results[-1]
    assert deal.leader == E
    assert per_seat(deal.tricks) == {"N": 0, "E": 13, "S": 0, "W": 0}
    assert per_seat(deal.points) == {"N": 20, "E": 500, "S": 0, "W": 0}
    assert deal.multiplier == 4
    # N was paid, but took no trick: N still has a compensating rozbójnik due (R27, R22),
    # and the order starts from E, who led the first trick (R23)
    assert compensations(deal) == [("R", "S"), ("R", "W"), ("R", "N")]


def test_a_sale_changes_no_trick_counts_and_can_leave_the_buyer_below_zero():
    """R27: S buys for 3, takes 1 trick of a ×2 odgrywka: 20 − 30 = −10; the seller N gets 40 + 30."""
    state = after_max().start_deal(rotated(SINGLE_ZERO, S))  # N's role to S: W takes no trick
    state = play_out(play(state.offer_lead(S, 3).decide_lead(0), SINGLE_ZERO_PLAYS))

    deal = state.results[-1]
    assert per_seat(deal.tricks) == {"N": 2, "E": 10, "S": 1, "W": 0}
    assert per_seat(deal.points) == {"N": 70, "E": 200, "S": -10, "W": 0}
    assert compensations(deal) == [("R", "W")]
    # R7: W's rozbójnik comes before the second odgrywka still due from the Max
    assert due(state) == (3, "R", "E", "W", True)


def test_several_players_may_offer_and_the_holder_accepts_one():
    """R28: four offers; N accepts W's; the offers not accepted change nothing."""
    state = after_max().start_deal(rotated(ONE_SUIT_EACH, W))
    state = state.offer_lead(E, 2).offer_lead(S, 1).offer_lead(W, 3).offer_lead(E, 1)
    assert [(o.buyer.name, o.price) for o in state.deal.offers] == [("E", 2), ("S", 1), ("W", 3), ("E", 1)]
    assert state.deal.to_play == N  # an offer alone moves nothing

    state = state.decide_lead(2)
    assert state.deal.sale == (W, 3) and state.deal.to_play == W

    state = play_out(state)
    assert per_seat(state.results[-1].points) == {"N": 30, "E": 0, "S": 0, "W": 520 - 30}


def test_the_holder_may_keep_the_lead_and_then_nobody_pays():
    """R28."""
    state = after_max().start_deal(ONE_SUIT_EACH).offer_lead(E, 5).decide_lead(None)

    assert state.deal.sale is None and state.deal.to_play == N
    state = play_out(state)
    assert per_seat(state.results[-1].points) == {"N": 520, "E": 0, "S": 0, "W": 0}


def test_no_offer_is_taken_after_the_decision():
    """R28."""
    for decision in (None, 0):
        state = after_max().start_deal(ONE_SUIT_EACH).offer_lead(E, 2).decide_lead(decision)

        assert not state.deal.can_sell_lead
        with pytest.raises(errors.SaleNotAllowed):
            state.offer_lead(S, 1)
        with pytest.raises(errors.SaleNotAllowed):
            state.decide_lead(None)


def test_no_offer_is_taken_after_the_first_card():
    """R28: playing the first card keeps the lead."""
    state = after_max().start_deal(ONE_SUIT_EACH).offer_lead(E, 2)
    state = play(state, "AS")

    assert not state.deal.can_sell_lead
    with pytest.raises(errors.SaleNotAllowed):
        state.offer_lead(S, 1)
    with pytest.raises(errors.SaleNotAllowed):
        state.decide_lead(0)


def test_states_are_values_an_offer_leaves_the_earlier_state_as_it_was():
    """R28 events return new states."""
    before = after_max().start_deal(ONE_SUIT_EACH)
    after = before.offer_lead(E, 2).decide_lead(0)

    assert before.deal.offers == () and before.deal.sale is None and before.deal.to_play == N
    assert after.deal.to_play == E


# --- R29: what the engine reports -------------------------------------------------------------------


def test_a_finished_deal_is_reported_as_the_record_format_says():
    """R29, RECORD_FORMAT.md 1.1: a played deal says so (``entry``)."""
    state = play_out(play(match("R O").start_deal(SINGLE_ZERO), SINGLE_ZERO_PLAYS))

    assert state.summary() == {
        "complete": False,
        "deals": [
            {
                "number": 1,
                "kind": "rozbojnik",
                "dealer": "W",
                "leader": "N",
                "compensating": False,
                "tricks": {"N": 1, "E": 0, "S": 2, "W": 10},
                "points": {"N": -8, "E": 0, "S": -60, "W": -192},
                "kreski": {"N": 0, "E": 1, "S": 0, "W": 0},
                "multiplier": 2,
                "entry": "played",
            }
        ],
        "totals": {"N": -8, "E": 0, "S": -60, "W": -192},
        "winners": [],
    }


# --- R30: rejections and their precedence ------------------------------------------------------------


def test_a_card_from_another_players_hand_is_not_your_turn_naming_the_player_on_turn():
    """R30: not_your_turn wins over every card rule (W's 7C would not follow spades either)."""
    state = match("R").start_deal(HEARTS_AFTER_SPADES)
    error = rejection(state, "QS")
    assert (error.code, error.seat, str(error.card)) == ("not_your_turn", N, "QS")

    state = play(state, "AS")
    error = rejection(state, "7C")
    assert (error.code, error.seat) == ("not_your_turn", E)
    assert error.as_json() == {"code": "not_your_turn", "deal": None, "play_index": None, "seat": "E", "card": "7C"}


def test_a_card_already_played_is_card_not_in_hand():
    """R30: in nobody's hand."""
    state = play(match("R").start_deal(HEARTS_AFTER_SPADES), "AS QS TS 8S")

    error = rejection(state, "AS")
    assert (error.code, error.seat) == ("card_not_in_hand", N)
    error = rejection(state, "QS")  # played by E, and E is not on turn
    assert (error.code, error.seat) == ("card_not_in_hand", N)


def test_a_53rd_card_is_deal_over():
    """R30: deal_over."""
    deal = match("R").start_deal(CHAIN).deal  # the DealState itself: it does not move on to a next deal
    for line in CHAIN_PLAYS.splitlines():
        for token in line.split("#")[0].split():
            deal = deal.play(Card.parse(token))
    assert deal.is_over and deal.to_play is None and deal.legal_cards(N) == ()

    with pytest.raises(errors.DealOver) as caught:
        deal.play(Card.parse("AS"))
    assert caught.value.code == "deal_over" and caught.value.seat is None


def test_a_deal_after_the_match_is_over_is_match_over():
    """R30: match_over."""
    state = play(match("O").start_deal(CHAIN), CHAIN_PLAYS)
    assert state.complete

    with pytest.raises(errors.MatchOver) as caught:
        state.start_deal(CHAIN)
    assert caught.value.code == "match_over"
    with pytest.raises(errors.MatchOver):
        state.play(Card.parse("AS"))


@pytest.mark.parametrize("case", ["a hand of 12", "a hand of 14", "a card twice", "three hands", "no cards"])
def test_hands_that_are_not_four_times_13_distinct_cards_are_bad_hands(case):
    """R30: bad_hands."""
    n, e, s, w = (list(hand) for hand in CHAIN)
    bad = {
        "a hand of 12": lambda: (n[:12], e, s + n[12:], w),
        "a hand of 14": lambda: (n + e[:1], e[1:], s, w),
        "a card twice": lambda: (n, e[:12] + n[:1], s, w),
        "three hands": lambda: (n, e, s + w),
        "no cards": lambda: ((), (), (), ()),
    }[case]()

    with pytest.raises(errors.BadHands) as caught:
        match("R").start_deal(bad)
    assert caught.value.code == "bad_hands"


def test_a_hand_holding_a_number_that_is_no_card_is_bad_hands():
    """R30: bad_hands, "not 4 × 13 distinct cards of one deck"; 52 already is, -1 should be too."""
    n, e, s, w = (list(hand) for hand in CHAIN)
    with pytest.raises(errors.BadHands):
        match("R").start_deal((n[:12] + [52], e, s, w))
    with pytest.raises(errors.BadHands):
        match("R").start_deal((n[:12] + [-1], e, s, w))


def test_every_r30_code_has_its_error_type_citing_its_rule():
    """R30: one error type per code, each with the rule it enforces."""
    codes = {
        "not_your_turn": None,
        "card_not_in_hand": None,
        "must_follow_suit": "R11",
        "hearts_lead_forbidden": "R10",
        "king_of_hearts_first_trick": "R12a",
        "king_of_hearts_first": "R12b",
        "highest_heart_first": "R12c",
        "must_overtake": "R16",
        "sale_not_allowed": "R26",
        "bad_sale": "R26",
        "deal_over": None,
        "match_over": None,
        "deal_incomplete": None,
        "bad_hands": None,
    }
    for code, rule in codes.items():
        violation = errors.VIOLATIONS[code]
        assert issubclass(violation, RuleViolation) and violation.code == code
        if rule:
            assert violation.rule == rule, code


def record_of(deals, regular="R O", first_dealer="W", **options):
    """A kierki-match/1 record; each deal is (hands, plays script[, sale dict])."""

    def deal_json(hands_, plays, sale=None):
        data = {
            "hands": {seat.name: [str(c) for c in hands_[seat]] for seat in Seat},
            "plays": [token for line in plays.splitlines() for token in line.split("#")[0].split()],
        }
        if sale is not None:
            data["sale"] = sale
        return data

    return record.decode(
        {
            "format": "kierki-match/1",
            "ruleset": {"name": "rozbojnik-odgrywka", "options": {"regular_deals": regular.split(), **options}},
            "players": {"N": "Ala", "E": "Bartek", "S": "Celina", "W": "Darek"},
            "first_dealer": first_dealer,
            "deals": [deal_json(*deal) for deal in deals],
        }
    )


def replay_error(deals, **kwargs):
    return replay(record_of(deals, **kwargs)).summary()["error"]


def error(code, deal, play_index=None, seat=None, card=None):
    return {"code": code, "deal": deal, "play_index": play_index, "seat": seat, "card": card}


def test_replay_reports_a_card_out_of_turn_naming_the_player_on_turn():
    """R30 in a record: the 4th play, W's 8S, comes when N has played and E is on turn."""
    assert replay_error([(HEARTS_AFTER_SPADES, "AS 8S")]) == error("not_your_turn", 1, 1, "E", "8S")


def test_replay_reports_a_card_played_twice():
    """R30: card_not_in_hand, naming N, who is on turn."""
    assert replay_error([(HEARTS_AFTER_SPADES, "AS QS TS 8S AS")]) == error("card_not_in_hand", 1, 4, "N", "AS")


def test_replay_reports_a_53rd_play_as_deal_over():
    """R30: the seat is null for deal_over."""
    assert replay_error([(CHAIN, CHAIN_PLAYS + " 2S")]) == error("deal_over", 1, 52, None, "2S")


def test_replay_reports_an_unfinished_deal_before_the_last_as_deal_incomplete():
    """R30: deal_incomplete comes after that deal's plays were checked."""
    deals = [(CHAIN, "AS QD 3C 2S"), (rotated(CHAIN, E), "")]
    assert replay_error(deals) == error("deal_incomplete", 1)

    deals = [(CHAIN, "AS QD 3C AH"), (rotated(CHAIN, E), "")]  # W discards, holding the 2S
    assert replay_error(deals) == error("must_follow_suit", 1, 3, "W", "AH")


def test_an_unfinished_last_deal_is_a_match_in_progress():
    """RECORD_FORMAT: only the last deal may be unfinished."""
    summary = replay(record_of([(CHAIN, CHAIN_PLAYS), (rotated(CHAIN, E), "AS QD")])).summary()

    assert summary["complete"] is False and len(summary["deals"]) == 1 and summary["winners"] == []


def test_replay_checks_match_over_before_bad_hands():
    """R30 order within a deal: match_over, bad_hands, sale_not_allowed, bad_sale, plays."""
    broken = (CHAIN[0][:12], CHAIN[1], CHAIN[2] + CHAIN[0][12:], CHAIN[3])
    assert replay_error([(CHAIN, CHAIN_PLAYS), (broken, "")], regular="O") == error("match_over", 2)


def test_replay_checks_bad_hands_before_the_sale():
    """R30: bad_hands before sale_not_allowed and bad_sale."""
    broken = (CHAIN[0][:12], CHAIN[1], CHAIN[2] + CHAIN[0][12:], CHAIN[3])
    assert replay_error([(broken, "", {"buyer": "X", "price": 0})]) == error("bad_hands", 1)


def test_replay_checks_sale_not_allowed_before_bad_sale():
    """R30 order; RECORD_FORMAT 1.1: a sale fault's seat is the buyer it names when that is a seat, else null."""
    assert replay_error([(CHAIN, "", {"buyer": "X", "price": 0})]) == error("sale_not_allowed", 1, seat=None)
    assert replay_error([(CHAIN, "", {"buyer": "S", "price": 2})]) == error("sale_not_allowed", 1, seat="S")


def test_replay_checks_bad_sale_before_the_plays():
    """R30: the seller buying (deal 2, after Max), a price of 14 — before the plays are looked at."""
    deals = [(ONE_SUIT_EACH, MAX_PLAYS), (ONE_SUIT_EACH, "2C", {"buyer": "N", "price": 2})]
    assert replay_error(deals, regular="R O") == error("bad_sale", 2, seat="N")
    deals = [(ONE_SUIT_EACH, MAX_PLAYS), (ONE_SUIT_EACH, "2C", {"buyer": "E", "price": 14})]
    assert replay_error(deals, regular="R O") == error("bad_sale", 2, seat="E")


def test_replay_of_a_sold_lead_lets_the_buyer_lead():
    """R26 in a record: Max by N, then E buys the lead of the first compensating odgrywka for 2."""
    summary = replay(
        record_of(
            [
                (ONE_SUIT_EACH, MAX_PLAYS),
                (rotated(ONE_SUIT_EACH, E), MAX_PLAYS, {"buyer": "E", "price": 2}),  # the same cards, E leading
            ]
        )
    ).summary()

    assert [d["leader"] for d in summary["deals"]] == ["N", "E"]
    assert summary["deals"][1]["points"] == {"N": 20, "E": 500, "S": 0, "W": 0}


def test_the_replay_state_stops_just_before_the_first_violation():
    """R30: an illegal event is rejected whole."""
    result = replay(record_of([(HEARTS_AFTER_SPADES, "AS QS TS 8S 2H")]))

    assert result.error.code == "hearts_lead_forbidden"
    assert [str(c) for c in result.state.deal.plays] == ["AS", "QS", "TS", "8S"]
    assert "2H" in {str(c) for c in result.state.deal.hand(N)}


# --- the ruleset options --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, field",
    [
        ({"regular_deals": []}, "regular_deals"),
        ({"regular_deals": ["R", "X"]}, "regular_deals"),
        ({"regular_deals": "RO"}, "regular_deals"),
        ({"heart_discard": "ascending"}, "heart_discard"),
        ({"last_tricks": [12, 12]}, "last_tricks"),
        ({"last_tricks": [0, 13]}, "last_tricks"),
        ({"last_tricks": [12, 13, 7]}, "last_tricks"),
        ({"last_tricks": [True, 13]}, "last_tricks"),
        ({"trumps": "S"}, "trumps"),
    ],
)
def test_a_bad_ruleset_option_is_a_ruleset_error_naming_it(options, field):
    """R5, R12c, R15."""
    with pytest.raises(errors.RulesetError) as caught:
        Ruleset.from_options(options)
    assert caught.value.field == field


@pytest.mark.parametrize("entry", [["R"], {"kind": "R"}])
def test_an_unhashable_regular_deal_entry_is_a_ruleset_error(entry):
    """R5."""
    with pytest.raises(errors.RulesetError):
        Ruleset.from_options({"regular_deals": ["R", entry]})


def test_the_ruleset_stores_only_options_that_differ_from_the_defaults():
    """R5, R12c, R15: RECORD_FORMAT ruleset.options."""
    assert Ruleset.from_options({}).options() == {}
    ruleset = Ruleset.from_options({"last_tricks": [7, 13], "heart_discard": "king_first"})
    assert ruleset.options() == {"last_tricks": [7, 13]}
    assert Ruleset.from_options(ruleset.options()) == ruleset
