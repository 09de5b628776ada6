"""What the class missed: the teacher's report of a class, question by question.

Each question the class was asked is one line (its rounds grouped as peer instruction asks them:
vote 1, vote 2, and the question of the same kind answered alone): the share right in each, the
most common wrong answer of the first vote, how many phones moved from wrong to right (and from
right to wrong) between the votes, and the time the question took. Read from the store, so it is
there while the class runs and until the room expires. A question still being asked is left out
until it is revealed: the report is the teacher's, and a projector may be showing it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pages.classroom import kinds
from pages.classroom.room_store import RoomStore
from pages.classroom.rooms import Round

COLUMNS = (
    "Slide", "Question", "Vote 1", "Vote 2", "Same kind", "Most common wrong answer", "Wrong → right",
    "Right → wrong", "Answers", "Minutes",
)  # fmt: skip


@dataclass(frozen=True)
class Vote:
    """One round's answers as the report reads them."""

    round: Round
    answers: dict[str, str]  # phone → stored value
    last: float  # when its last answer came (its asking time if none)

    def right(self) -> dict[str, bool]:
        kind = kinds.of(self.round.question)
        return {phone: bool(kind.right(value, self.round.question)) for phone, value in self.answers.items()}

    def share(self) -> str:
        if not kinds.of(self.round.question).graded:
            return "no right answer"
        right = sum(self.right().values())
        return (
            f"{right / len(self.answers):.0%} ({right} of {len(self.answers)})"
            if self.answers
            else "no answers"
        )


def chains(rounds: Sequence[Round]) -> list[list[Round]]:
    """The class's rounds grouped by the question they are about (``Question.root``), in order."""
    grouped: dict[str, list[Round]] = {}
    for r in rounds:
        grouped.setdefault(r.question.root, []).append(r)
    return list(grouped.values())


def lines(store: RoomStore, code: str, key: str) -> tuple[list[dict], int]:
    """The report's lines (one dict a question, ``COLUMNS``), and how many questions are left
    out because they are being asked now, unrevealed."""
    rounds = store.rounds(code)
    room = store.room(code)
    slides = store.slides(code, key)  # the deck's slide of each question asked from it
    out, withheld = [], 0
    for chain in chains(rounds):
        if not chain[-1].revealed and not (room is not None and room.ended):
            withheld += 1
            continue
        votes = []
        for r in chain:
            answers = store.answers(code, key, r.number)
            last = max((at for _, at in answers.values()), default=r.asked_at)
            votes.append(Vote(r, {phone: value for phone, (value, _) in answers.items()}, last))
        found = slides.get(chain[0].question.qid)
        out.append({"Slide": f"{found[0]}. {found[1]}" if found else "", **line(votes)})
    return out, withheld


def line(votes: Sequence[Vote]) -> dict:
    """One question's line from its rounds in the order they were asked."""
    first_q = votes[0].round.question
    alike = [v for v in votes if v.round.question.qid == first_q.qid]
    same = [v for v in votes if v.round.question.qid != first_q.qid]
    kind = kinds.of(first_q)
    one, two = alike[0], (alike[1] if len(alike) > 1 else None)
    wrong = Counter()
    for value in one.answers.values():
        if kind.graded and not kind.right(value, first_q):
            wrong[kind.shown(value, first_q)] += 1
    common = wrong.most_common(1)
    up = down = None
    if two is not None and kind.graded:
        before, after = one.right(), two.right()
        both = before.keys() & after.keys()
        up = sum(not before[p] and after[p] for p in both)
        down = sum(before[p] and not after[p] for p in both)
    seconds = max(v.last for v in votes) - votes[0].round.asked_at
    return {
        "Question": first_q.text,
        "Vote 1": one.share(),
        "Vote 2": two.share() if two is not None else "",
        "Same kind": same[0].share() if same else "",
        "Most common wrong answer": f"{common[0][0]} ({common[0][1]})" if common else "",
        "Wrong → right": "" if up is None else up,
        "Right → wrong": "" if down is None else down,
        "Answers": sum(len(v.answers) for v in votes),
        "Minutes": f"{max(0.0, seconds) / 60:.1f}",
    }
