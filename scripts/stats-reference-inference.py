#!/usr/bin/python3
"""Reference values for arena's judging statistics, from SciPy and statsmodels.

Run once by hand with Debian's Python (python3-scipy, python3-statsmodels):

    /usr/bin/python3 scripts/stats-reference-inference.py

It writes test/fixtures/stats/inference.json: each data set beside what the
reference implementation computes on it. arena's tests read that file and
never need Python. The data sets are fixed lists and draws of a seeded NumPy
generator, written into the file, so the tests compute on exactly these.
"""
import json
import math
import os
import subprocess

import numpy as np
import scipy
import statsmodels
import statsmodels.api as sm
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.proportion import proportion_confint

CONFIDENCE = 0.95
rng = np.random.default_rng(20261203)


def floats(values):
    return [float(value) for value in values]


def wilson_cases():
    counts = [(2, 3), (0, 10), (10, 10), (72, 100), (360, 500), (1, 1), (499, 1000), (3, 7), (0, 1), (9500, 10000)]
    cases = []
    for successes, trials in counts:
        low, high = proportion_confint(successes, trials, alpha=1 - CONFIDENCE, method="wilson")
        cases.append({"successes": successes, "trials": trials, "low": float(low), "high": float(high)})
    return cases


def mean_interval_cases():
    data = [
        [0.9, 0.8, 0.2],
        [1, 0, 1, 1, 0, 1],
        [0.5, 0.55],
        floats(np.round(rng.uniform(0, 1, 30), 3)),
        floats(np.round(rng.normal(3, 2, 200), 4)),
        floats(rng.integers(0, 2, 999)),
    ]
    cases = []
    for values in data:
        n = len(values)
        mean = float(np.mean(values))
        sem = float(stats.sem(values))
        low, high = stats.t.interval(CONFIDENCE, n - 1, loc=mean, scale=sem)
        cases.append({"values": values, "mean": mean, "standardError": sem, "low": float(low), "high": float(high)})
    return cases


def paired_cases():
    sets = []
    base = np.round(rng.uniform(0, 1, 40), 3)
    sets.append((floats(base), floats(np.clip(np.round(base + rng.normal(0.05, 0.1, 40), 3), 0, 1))))
    a = np.round(rng.normal(0.6, 0.2, 250), 4)
    sets.append((floats(a), floats(np.round(a + rng.normal(-0.02, 0.05, 250), 4))))
    a = rng.integers(0, 2, 120)
    flip = rng.uniform(0, 1, 120) < 0.2
    sets.append((floats(a), floats(np.where(flip, 1 - a, a))))
    sets.append(([0.1, 0.5, 0.9, 0.3], [0.2, 0.4, 1.0, 0.6]))
    sets.append((floats(np.round(rng.uniform(0, 10, 15), 2)), floats(np.round(rng.uniform(0, 10, 15), 2))))
    cases = []
    for a, b in sets:
        n = len(a)
        test = stats.ttest_rel(b, a)
        d = np.subtract(b, a)
        mean_difference = float(np.mean(d))
        paired_se = float(stats.sem(d))
        low, high = stats.t.interval(CONFIDENCE, n - 1, loc=mean_difference, scale=paired_se)
        unpaired = stats.ttest_ind(b, a)
        cases.append({
            "a": a,
            "b": b,
            "meanDifference": mean_difference,
            "pairedStandardError": paired_se,
            "t": float(test.statistic),
            "pValue": float(test.pvalue),
            "low": float(low),
            "high": float(high),
            # equal sizes: ttest_ind's pooled standard error is sqrt(sem(a)^2 + sem(b)^2)
            "unpairedStandardError": float(math.sqrt(stats.sem(a) ** 2 + stats.sem(b) ** 2)),
            # where the mean difference is 0, ttest_ind's statistic is 0 and says nothing of its error
            "unpairedStandardErrorFromTTestInd": None if unpaired.statistic == 0 else float(mean_difference / unpaired.statistic),
        })
    return cases


def mcnemar_cases():
    tables = [[[20, 3], [9, 8]], [[50, 0], [0, 50]], [[0, 1], [0, 0]], [[10, 12], [12, 10]], [[300, 40], [18, 142]], [[5, 25], [2, 1]], [[400, 300], [250, 50]]]
    cases = []
    for table in tables:
        result = mcnemar(np.array(table), exact=True)
        cases.append({"table": table, "b": table[0][1], "c": table[1][0], "statistic": float(result.statistic), "pValue": float(result.pvalue)})
    return cases


def pass_at_k_cases():
    triples = [(3, 1, 1), (3, 1, 2), (3, 2, 2), (10, 3, 1), (10, 3, 5), (10, 0, 3), (10, 10, 10), (20, 7, 4), (200, 13, 10), (1000, 1, 100), (1000, 500, 1000), (5, 2, 5)]
    cases = []
    for n, c, k in triples:
        value = 1 - math.comb(n - c, k) / math.comb(n, k)
        cases.append({"n": n, "c": c, "k": k, "passAtK": float(value)})
    return cases


def clustered_cases():
    cases = []
    for clusters, size, kind in [(10, 3, "binary"), (50, 5, "scores"), (4, 2, "binary"), (200, 10, "binary")]:
        groups = np.repeat(np.arange(clusters), size)
        if kind == "binary":
            rates = rng.uniform(0, 1, clusters)
            values = (rng.uniform(0, 1, clusters * size) < np.repeat(rates, size)).astype(float)
        else:
            values = np.round(np.repeat(rng.uniform(0, 1, clusters), size) + rng.normal(0, 0.1, clusters * size), 4)
        fit = sm.OLS(values, np.ones(len(values))).fit(cov_type="cluster", cov_kwds={"groups": groups, "use_correction": False})
        cases.append({
            "values": floats(values),
            "clusterSize": size,
            "clusters": [int(group) for group in groups],
            "mean": float(fit.params[0]),
            "standardError": float(fit.bse[0]),
            "naiveStandardError": float(stats.sem(values)),
        })
    return cases


def main():
    reference = {
        "generatedBy": "scripts/stats-reference-inference.py",
        "versions": {"scipy": scipy.__version__, "statsmodels": statsmodels.__version__, "numpy": np.__version__},
        "confidence": CONFIDENCE,
        "wilson": wilson_cases(),
        "meanInterval": mean_interval_cases(),
        "paired": paired_cases(),
        "mcnemar": mcnemar_cases(),
        "passAtK": pass_at_k_cases(),
        "clustered": clustered_cases(),
    }
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    target = os.path.join(root, "test", "fixtures", "stats", "inference.json")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w") as out:
        json.dump(reference, out, indent=1, allow_nan=False)
        out.write("\n")
    # laid out as the repository's formatter lays out JSON, so `npx biome check .` stays clean
    subprocess.run(["npx", "biome", "format", "--write", target], cwd=root, check=True)
    print(f"wrote {os.path.relpath(target, root)}")


if __name__ == "__main__":
    main()
