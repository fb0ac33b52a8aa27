"""Reference wealth paths of the sequential gate (test/fixtures/stats/betting.json).

A direct numpy transcription of Waudby-Smith & Ramdas, "Estimating means of
bounded random variables by betting", JRSS-B 2024: aGRAPA bets (Section 5),
truncated at c = 1/2, against the without-replacement null mean of the items
not yet seen (Section 6): m_t = (N p0 - S_{t-1}) / (N - t + 1). Run once, by
hand, with Debian's python3 (numpy): /usr/bin/python3 scripts/betting-reference.py,
then npx biome format --write test/fixtures/stats/betting.json
"""

import json
import pathlib

import numpy as np

C = 0.5


def wealth_paths(x, p0, N):
    x = np.asarray(x, dtype=float)
    t = np.arange(1, len(x) + 1)
    S = np.cumsum(x)
    S_prev = np.concatenate([[0.0], S[:-1]])
    # regularised running mean and variance after each result, then shifted: bets see earlier results only
    mu_hat = (0.5 + S) / (t + 1)
    sigma2_hat = (0.25 + np.cumsum((x - mu_hat) ** 2)) / (t + 1)
    mu_prev = np.concatenate([[0.5], mu_hat[:-1]])
    sigma2_prev = np.concatenate([[0.25], sigma2_hat[:-1]])
    m_t = (N * p0 - S_prev) / (N - t + 1)
    raw = (mu_prev - m_t) / (sigma2_prev + (mu_prev - m_t) ** 2)
    lam_up = np.minimum(np.maximum(raw, 0.0), C / m_t)
    lam_down = np.minimum(np.maximum(-raw, 0.0), C / (1.0 - m_t))
    log_pass = np.cumsum(np.log1p(lam_up * (x - m_t)))
    log_fail = np.cumsum(np.log1p(-lam_down * (x - m_t)))
    return log_pass, log_fail, m_t


def case(name, x, p0, N):
    log_pass, log_fail, m_t = wealth_paths(x, p0, N)
    return {
        "name": name,
        "threshold": p0,
        "total": N,
        "results": [float(v) for v in x],
        "nullMeans": m_t.tolist(),
        "logWealthPass": log_pass.tolist(),
        "logWealthFail": log_fail.tolist(),
    }


def main():
    rng = np.random.default_rng(20261203)
    cases = [
        case("all passes, N 10000", np.ones(30), 0.8, 10000),
        case("pass rate 0.95, N 500", (rng.random(60) < 0.95).astype(float), 0.8, 500),
        case("pass rate 0.6, N 200", (rng.random(60) < 0.6).astype(float), 0.8, 200),
        case("scores in [0, 1], N 100", rng.random(50).round(3), 0.5, 100),
        case("near the threshold, N 80", (rng.random(40) < 0.8).astype(float), 0.8, 80),
    ]
    out = pathlib.Path(__file__).resolve().parent.parent / "test/fixtures/stats/betting.json"
    out.write_text(
        json.dumps(
            {
                "source": "scripts/betting-reference.py (numpy %s)" % np.__version__,
                "betScale": C,
                "cases": cases,
            },
            indent=1,
        )
        + "\n"
    )
    print("wrote", out)


main()
