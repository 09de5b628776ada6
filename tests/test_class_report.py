"""What the class missed (pages/classroom/report.py): a class's rounds, answered by phones with
known picks, read back as the report's lines; the shares and movements recounted here by hand."""

from __future__ import annotations

import random

from pages.classroom import report, room_store
from pages.classroom.rooms import Question

Q = Question("knn.2", "k = 2 after k = 1?", ("same map", "grey cells", "new colours"), 1, "Ties.")
SAME = Question(
    "knn.7.same1", "k = 4 after k = 3?", ("same map", "grey cells", "new colours"), 2, "", follows="knn.2"
)
EST = Question("knn.8.own1", "How many updates?", (), 12, "", "number", tolerance=2)


class Clock:
    now = 1_800_000_000.0

    def __call__(self):
        return self.now


def phone(i: int) -> str:
    return f"phone-{i:04d}-report"


def test_the_report_reads_each_question_s_votes_the_same_kind_and_the_moves(tmp_path):
    clock = Clock()
    store = room_store.SQLiteStore(tmp_path / "c.sqlite3", clock=clock)
    code, key = store.open_room(size=40)
    rng = random.Random(7)
    phones = [phone(i) for i in range(30)]
    for p in phones:
        store.join(code, p)
    first = {p: rng.choice([0, 1, 1, 2]) for p in phones}
    second = {p: rng.choice([1, 1, 1, 2]) for p in phones[:25]}  # five did not vote again
    third = {p: rng.choice([2, 2, 0]) for p in phones[::2]}
    store.ask(code, key, Q)
    store.note_slide(code, key, Q.qid, 2, "k = 2: tied votes")  # asked from a deck's second slide
    for p, v in first.items():
        store.answer(code, p, v)
    store.stop(code, key)
    clock.now += 60
    store.ask_again(code, key)
    for p, v in second.items():
        store.answer(code, p, v)
    store.stop(code, key)
    clock.now += 45
    store.ask(code, key, SAME)
    for p, v in third.items():
        clock.now += 1
        store.answer(code, p, v)
    lines, withheld = report.lines(store, code, key)
    assert (lines, withheld) == ([], 1)  # asked now, unrevealed: not in the report yet
    store.reveal(code, key)
    store.ask(code, key, EST)
    estimates = {p: rng.choice([10, 12, 13.5, 30]) for p in phones[:10]}
    for p, v in estimates.items():
        store.answer(code, p, v, "number")
    store.reveal(code, key)

    (line, number), withheld = report.lines(store, code, key)
    assert withheld == 0 and list(line) == list(report.COLUMNS)
    assert (line["Slide"], number["Slide"]) == ("2. k = 2: tied votes", "")

    def share(answers, right):
        n = sum(v == right for v in answers.values())
        return f"{n / len(answers):.0%} ({n} of {len(answers)})"

    assert line["Vote 1"] == share(first, 1) and line["Vote 2"] == share(second, 1)
    assert line["Same kind"] == share(third, 2)
    wrong = [Q.choices[v] for v in first.values() if v != 1]
    top = max(set(wrong), key=wrong.count)
    assert line["Most common wrong answer"] == f"{top} ({wrong.count(top)})"
    both = second.keys()
    assert line["Wrong → right"] == sum(first[p] != 1 and second[p] == 1 for p in both)
    assert line["Right → wrong"] == sum(first[p] == 1 and second[p] != 1 for p in both)
    assert line["Answers"] == len(first) + len(second) + len(third)
    assert line["Minutes"] == f"{(60 + 45 + len(third)) / 60:.1f}"
    right = sum(abs(v - 12) <= 2 for v in estimates.values())
    assert number["Vote 1"] == f"{right / len(estimates):.0%} ({right} of {len(estimates)})"
    assert number["Vote 2"] == "" and number["Same kind"] == ""
    store.close()
