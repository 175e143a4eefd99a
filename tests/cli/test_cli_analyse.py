"""``kierki analyse``: the arbiter's analysis of a record's position, as a table or JSON lines."""

import json

from support import EXAMPLES

from games.cli.main import main
from games.engine import record, replay
from games.engine.analysis import analyse, deal_position

LEGAL = EXAMPLES / "m1-legal.record.json"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_it_prints_a_table_of_each_seats_range_and_the_cards_of_the_seat_on_turn(capsys):
    code, out, _ = run(capsys, "analyse", str(LEGAL), "--deal", "1", "--at", "40")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "deal 1 (rozbojnik) after 40 plays: W to play, exact"
    assert lines[1].split() == ["seat", "worst", "best", "guaranteed"]
    assert [line.split()[0] for line in lines[2:6]] == ["N", "E", "S", "W"]
    assert lines[6].startswith("W's cards (guaranteed after each; * the best): ") and "*" in lines[6]


def test_json_prints_one_object_per_position_with_the_engines_values(capsys):
    code, out, _ = run(capsys, "analyse", str(LEGAL), "--deal", "1", "--at", "44-46", "--json", "--budget", "30")
    assert code == 0
    objects = [json.loads(line) for line in out.splitlines()]
    assert [o["at"] for o in objects] == [44, 45, 46]
    deal = replay(record.load(LEGAL)).state.results[0].final
    for obj in objects:
        assert set(obj) == {"deal", "at", "to_play", "exact", "seats", "cards"}
        assert obj == {"deal": 1, "at": obj["at"], **analyse(deal_position(deal, obj["at"]), budget=30).as_json()}
        on_turn = obj["seats"][obj["to_play"]]
        assert max(obj["cards"].values()) == on_turn["guaranteed"]
        assert all(v["worst"] <= v["guaranteed"] <= v["best"] for v in obj["seats"].values())


def test_at_the_end_of_a_deal_every_value_is_the_deals_points_and_no_one_is_on_turn(capsys):
    expected = json.loads((EXAMPLES / "m1-legal.expected.json").read_text())["deals"][1]["points"]
    code, out, _ = run(capsys, "analyse", str(LEGAL), "--deal", "2", "--at", "52", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["to_play"] is None and obj["cards"] == {} and obj["exact"] is True
    assert obj["seats"] == {seat: {"worst": p, "best": p, "guaranteed": p} for seat, p in expected.items()}


def test_it_exits_2_for_a_deal_or_a_position_the_record_does_not_have(capsys):
    code, _, err = run(capsys, "analyse", str(LEGAL), "--deal", "99", "--at", "0")
    assert code == 2 and "no deal 99" in err
    code, _, err = run(capsys, "analyse", str(EXAMPLES / "m1-partial.record.json"), "--deal", "5", "--at", "48")
    assert code == 2 and "deal 5 has 47 plays: --at must be 0 to 47" in err


def test_it_analyses_the_deal_still_in_play_of_an_unfinished_record(capsys):
    code, out, _ = run(
        capsys, "analyse", str(EXAMPLES / "m1-partial.record.json"), "--deal", "5", "--at", "47", "--json"
    )
    obj = json.loads(out)
    assert code == 0 and obj["to_play"] in "NESW" and obj["exact"] and obj["cards"]


def test_it_exits_2_for_an_unreadable_record(tmp_path, capsys):
    bad = tmp_path / "bad.record.json"
    bad.write_text("{not json")
    code, _, err = run(capsys, "analyse", str(bad), "--deal", "1", "--at", "0")
    assert code == 2 and "unreadable" in err


def test_with_a_node_budget_the_first_card_gets_the_same_bounds_on_every_run(capsys):
    argv = ("analyse", str(LEGAL), "--deal", "1", "--at", "0,1", "--json", "--nodes", "30000", "--budget", "0")
    code, first, _ = run(capsys, *argv)
    again = run(capsys, *argv)[1]
    assert code == 0 and first == again
    objects = [json.loads(line) for line in first.splitlines()]
    assert [o["at"] for o in objects] == [0, 1] and not objects[0]["exact"] and "bounds" in objects[0]
