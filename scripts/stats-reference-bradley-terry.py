#!/usr/bin/python3
"""Reference Bradley-Terry ratings for arena's tests, fitted independently of
arena's MM algorithm: SciPy's trust-region Newton method on the log-likelihood.

wins[i][j] counts system i beating system j, a tie as half a win to each side.
The likelihood is sum_{i != j} wins[i][j] * log(sigmoid(theta_i - theta_j)).
When the win graph is not strongly connected (a system that never wins or never
loses), there is no finite maximum: as arena, one virtual tie (half a win each
way) is added between every pair. Ratings: 1000 + 400/ln(10) * (theta - mean).

Run once by hand with Debian's python3 (SciPy 1.10):
    /usr/bin/python3 scripts/stats-reference-bradley-terry.py
It writes test/fixtures/stats/bradleyTerry.json.
"""
import json
import math
import pathlib

import numpy as np
import scipy
from scipy.optimize import minimize
from scipy.sparse.csgraph import connected_components

DATA_SETS = {
    "two systems": [[0, 3], [1, 0]],
    "three systems with ties": [[0, 6.5, 4], [3.5, 0, 5.5], [2, 4.5, 0]],
    "four systems, uneven games": [
        [0, 12, 3, 7.5],
        [8, 0, 9.5, 2],
        [5, 4.5, 0, 6],
        [2.5, 6, 1, 0],
    ],
    "five systems, a near cycle": [
        [0, 7, 2, 5, 9],
        [3, 0, 8, 4.5, 6],
        [8, 2, 0, 7, 3.5],
        [5, 5.5, 3, 0, 6],
        [1, 4, 6.5, 4, 0],
    ],
    "a system that never wins": [[0, 4, 2], [0, 0, 0], [3, 5, 0]],
    "a system that never loses": [[0, 2, 3], [0, 0, 1], [0, 1, 0]],
}


def fit(wins):
    w = np.array(wins, dtype=float)
    size = w.shape[0]
    graph = (w > 0).astype(int)
    np.fill_diagonal(graph, 0)
    components, _ = connected_components(graph, directed=True, connection="strong")
    regularized = components > 1
    if regularized:
        w = w + 0.5
        np.fill_diagonal(w, 0)

    # theta_0 fixed at 0: the likelihood only sees differences
    def expand(free):
        return np.concatenate([[0.0], free])

    def negative_log_likelihood(free):
        theta = expand(free)
        diff = theta[:, None] - theta[None, :]
        return float(np.sum(w * np.logaddexp(0.0, -diff)))

    def gradient(free):
        theta = expand(free)
        diff = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(diff))  # sigmoid(theta_j - theta_i)
        g = -np.sum(w * p, axis=1) + np.sum(w * p, axis=0)
        return g[1:]

    def hessian(free):
        theta = expand(free)
        diff = theta[:, None] - theta[None, :]
        s = 1.0 / (1.0 + np.exp(-diff))
        games = w + w.T
        off = -games * s * (1.0 - s)
        np.fill_diagonal(off, 0)
        full = off.copy()
        np.fill_diagonal(full, -off.sum(axis=1))
        return full[1:, 1:]

    result = minimize(
        negative_log_likelihood,
        np.zeros(size - 1),
        jac=gradient,
        hess=hessian,
        method="trust-exact",
        options={"gtol": 1e-13, "maxiter": 1000},
    )
    free = result.x
    # polish with plain Newton steps: the gradient down to rounding
    for _ in range(5):
        free = free - np.linalg.solve(hessian(free), gradient(free))
    theta = expand(free)
    theta = theta - theta.mean()
    ratings = 1000.0 + 400.0 / math.log(10.0) * theta
    return [float(r) for r in ratings], bool(regularized), float(np.max(np.abs(gradient(free))))


cases = []
for name, wins in DATA_SETS.items():
    ratings, regularized, gradient_norm = fit(wins)
    assert gradient_norm < 1e-9, (name, gradient_norm)
    cases.append({"name": name, "wins": wins, "ratings": ratings, "regularized": regularized})

out = pathlib.Path(__file__).resolve().parent.parent / "test" / "fixtures" / "stats" / "bradleyTerry.json"
out.write_text(
    json.dumps(
        {
            "source": "scripts/stats-reference-bradley-terry.py",
            "scipy": scipy.__version__,
            "method": "scipy.optimize.minimize trust-exact on the Bradley-Terry log-likelihood",
            "cases": cases,
        },
        indent=2,
    )
    + "\n"
)
print(f"wrote {len(cases)} data sets to {out}")
