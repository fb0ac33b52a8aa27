#!/usr/bin/python3
"""Reference values for arena's agreement statistics (src/domain/stats/).

Run once by hand with Debian's python3 (scipy 1.10, scikit-learn 1.2,
statsmodels 0.13); the tests read the JSON it writes and never need Python:

    /usr/bin/python3 scripts/stats-reference-agreement.py > test/fixtures/stats/agreement.json

Confusion matrices are written as arena reports them: rows the first rater
(the judge), columns the second (the reference); scikit-learn's are the
transpose (rows the truth). A precision or recall whose denominator is zero is
written as null (scikit-learn 1.2 can only say 0 there). The pairwise sets are
seeded cases of two to four systems with both orders of every pair answered;
the script folds each case to its winner by itself (Copeland points, an
inconsistent pair a tie) and measures those winners against the reference
winners over the systems and "tie", with string labels.
"""
import json
import random
import sys

import numpy as np
import scipy
import sklearn
import statsmodels
from scipy.stats import pearsonr, spearmanr
from sklearn.metrics import cohen_kappa_score, confusion_matrix, precision_recall_fscore_support
from statsmodels.stats.inter_rater import fleiss_kappa

# (name, judge labels, reference labels)
LABEL_SETS = [
    ("two categories", ["passed", "passed", "failed", "passed", "failed", "failed", "passed", "passed"],
     ["passed", "failed", "failed", "passed", "failed", "passed", "passed", "passed"]),
    ("three categories", ["passed", "failed", "skipped", "passed", "passed", "failed", "skipped", "failed", "passed", "failed", "passed", "skipped"],
     ["passed", "failed", "failed", "passed", "skipped", "failed", "skipped", "passed", "passed", "failed", "failed", "skipped"]),
    ("a category only the judge uses", ["passed", "skipped", "failed", "passed", "skipped", "failed", "passed"],
     ["passed", "failed", "failed", "passed", "passed", "failed", "failed"]),
    ("a category only the reference uses", ["passed", "passed", "failed", "failed", "passed", "failed"],
     ["passed", "skipped", "failed", "skipped", "passed", "passed"]),
    ("perfect agreement", ["a", "b", "c", "a", "b", "c", "a"], ["a", "b", "c", "a", "b", "c", "a"]),
    ("worse than chance", ["passed", "failed", "passed", "failed", "passed", "failed"],
     ["failed", "passed", "failed", "passed", "failed", "passed"]),
    ("four categories, uneven", ["w", "x", "y", "z", "w", "w", "x", "y", "y", "z", "w", "x", "z", "z", "y", "w", "x", "w"],
     ["w", "x", "z", "z", "w", "x", "x", "y", "w", "z", "w", "y", "z", "y", "y", "w", "w", "w"]),
]

# (name, first scores, second scores)
SCORE_SETS = [
    ("no ties", [0.1, 0.4, 0.35, 0.8, 0.9, 0.55, 0.2], [0.0, 0.5, 0.3, 0.7, 1.0, 0.6, 0.25]),
    ("ties on both sides", [1, 2, 2, 3, 3, 3, 4, 5, 5, 6], [2, 1, 4, 4, 3, 5, 5, 5, 7, 6]),
    ("negative relation with ties", [0.9, 0.8, 0.8, 0.5, 0.3, 0.3, 0.1], [0.1, 0.2, 0.3, 0.3, 0.7, 0.9, 0.9]),
    ("scores on a 1-5 scale", [5, 4, 4, 3, 2, 1, 5, 3, 2, 4, 1, 3], [4, 4, 5, 3, 1, 2, 5, 2, 2, 3, 1, 4]),
]

# (name, subjects x categories counts, equal raters per subject)
FLEISS_SETS = [
    ("Fleiss 1971 style: 10 subjects, 14 raters, 5 categories", [
        [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]),
    ("three annotators, passed/failed/skipped", [
        [3, 0, 0], [2, 1, 0], [0, 3, 0], [1, 1, 1], [0, 2, 1], [3, 0, 0], [0, 0, 3], [1, 2, 0]]),
    ("two annotators, two categories", [[2, 0], [1, 1], [0, 2], [2, 0], [2, 0], [0, 2], [1, 1]]),
]


# pairwise calibration: (name, seed, cases, systems per case, share of answers that pick the first slot)
PAIRWISE_SETS = [
    ("two systems, a judge that leans to the first slot", 11, 40, [2], 0.35),
    ("three or four systems, Copeland winners", 12, 60, [3, 4], 0.15),
    ("two to four systems, mostly ties", 13, 50, [2, 3, 4], 0.05),
]
SYSTEMS = ["atlas", "borealis", "cirrus", "delta"]


def copeland_winner(systems, answers):
    """The case's winner as arena defines it: a pair judged in both orders is won by the system
    chosen both times, else it is a tie (inconsistent counts as a tie); a won pair is 1 point, a
    tie half a point each; the most points wins, a shared most is a tie."""
    chosen = {}
    for first, second, slot in answers:
        pair = tuple(sorted((first, second)))
        pick = "tie" if slot == "tie" else (first if slot == "first" else second)
        chosen.setdefault(pair, []).append(pick)
    points = {system: 0.0 for system in systems}
    for (a, b), picks in chosen.items():
        if picks[0] == picks[1] and picks[0] != "tie":
            points[picks[0]] += 1
        else:
            points[a] += 0.5
            points[b] += 0.5
    best = max(points.values())
    leaders = [system for system, total in points.items() if total == best]
    return leaders[0] if len(leaders) == 1 else "tie"


def pairwise_case(name, seed, count, sizes, first_bias):
    rng = random.Random(seed)
    cases = []
    for index in range(count):
        systems = sorted(rng.sample(SYSTEMS, rng.choice(sizes)))
        quality = {system: rng.random() for system in systems}
        answers = []
        for i, a in enumerate(systems):
            for b in systems[i + 1:]:
                for first, second in ((a, b), (b, a)):
                    if rng.random() < first_bias:
                        slot = "first"
                    elif abs(quality[first] - quality[second]) < 0.15:
                        slot = "tie"
                    else:
                        slot = "first" if quality[first] > quality[second] else "second"
                    answers.append([first, second, slot])
        best = max(systems, key=lambda system: quality[system])
        reference = best if rng.random() < 0.6 else rng.choice(systems + ["tie"])
        cases.append({"caseId": f"case-{index}", "systems": systems, "answers": answers, "reference": reference})
    judge = [copeland_winner(case["systems"], case["answers"]) for case in cases]
    reference = [case["reference"] for case in cases]
    used = sorted({system for case in cases for system in case["systems"]})
    figures = label_case(name, judge, reference, labels=used + ["tie"])
    return {**figures, "cases": cases}


def maybe(value):
    value = float(value)
    return None if np.isnan(value) else value


def label_case(name, judge, reference, labels=None):
    labels = labels or sorted(set(judge) | set(reference))
    truth_rows = confusion_matrix(reference, judge, labels=labels)
    precision, recall, f1, support = precision_recall_fscore_support(
        reference, judge, labels=labels, zero_division=0)
    judged = truth_rows.sum(axis=0)  # how often the judge said each label
    referenced = truth_rows.sum(axis=1)
    per_label = {}
    for i, label in enumerate(labels):
        p = None if judged[i] == 0 else float(precision[i])
        r = None if referenced[i] == 0 else float(recall[i])
        f = None if p is None or r is None else float(f1[i])
        per_label[label] = {"precision": p, "recall": r, "f1": f, "support": int(support[i])}
    return {
        "name": name,
        "judge": judge,
        "reference": reference,
        "labels": labels,
        "matrix": truth_rows.T.tolist(),
        "kappa": maybe(cohen_kappa_score(judge, reference, labels=labels)),
        "kappaReversed": maybe(cohen_kappa_score(reference, judge, labels=labels)),
        "agreement": float(np.mean(np.array(judge) == np.array(reference))),
        "perLabel": per_label,
    }


def score_case(name, first, second):
    return {
        "name": name,
        "first": first,
        "second": second,
        "spearman": maybe(spearmanr(first, second).correlation),
        "pearson": maybe(pearsonr(first, second)[0]),
        "meanAbsoluteDifference": float(np.mean(np.abs(np.array(first, dtype=float) - np.array(second, dtype=float)))),
    }


def fleiss_case(name, counts):
    return {"name": name, "counts": counts, "kappa": maybe(fleiss_kappa(np.array(counts), method="fleiss"))}


json.dump({
    "producedBy": "scripts/stats-reference-agreement.py",
    "versions": {"python": sys.version.split()[0], "numpy": np.__version__, "scipy": scipy.__version__,
                 "sklearn": sklearn.__version__, "statsmodels": statsmodels.__version__},
    "labels": [label_case(*each) for each in LABEL_SETS],
    "scores": [score_case(*each) for each in SCORE_SETS],
    "fleiss": [fleiss_case(*each) for each in FLEISS_SETS],
    "pairwise": [pairwise_case(*each) for each in PAIRWISE_SETS],
}, sys.stdout, indent=2)
sys.stdout.write("\n")
