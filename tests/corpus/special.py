"""Likelihoods and pricing formulas: the gamma family, the normal distribution, sums and
products written out, n-ary ``hypot``, guards with ``math.isnan`` and integer functions.

The SciPy cases (``scipy.special``, ``scipy.stats.norm``) are in ``CASES`` only when
SciPy is installed (``SCIPY_CASES`` says which would be).
"""

import importlib.util
import math
from math import lgamma

from . import case

COUNTS = (0, 3, 1, 4, 2, 7, 0, 5)
EXPOSURE = (1.0, 2.5, 0.5, 3.0, 1.5, 4.0, 0.8, 2.2)
TRIALS = (10, 12, 8, 15)  # binomial observations: k successes in n trials
SUCCESSES = (3, 7, 1, 9)


# --- likelihoods ---------------------------------------------------------------------------

def poisson_loglik(log_rate, slope):
    """Poisson regression: counts with exposure, rate = exp(log_rate + slope * exposure)."""
    total = 0.0
    for k, e in zip(COUNTS, EXPOSURE):
        eta = log_rate + slope * e
        total += k * eta - math.exp(eta) - math.lgamma(k + 1.0)
    return total


def negative_binomial_loglik(r, p):
    """NB(r, p) log-likelihood of COUNTS, r a continuous dispersion."""
    total = 0.0
    for k in COUNTS:
        total += lgamma(k + r) - lgamma(r) - math.lgamma(k + 1) + r * math.log(p) + (
            k * math.log1p(-p))
    return total


def binomial_loglik(p):
    """log C(n, k) p^k (1 - p)^(n - k), summed: comb of integers, no derivative."""
    total = 0.0
    for n, k in zip(TRIALS, SUCCESSES):
        total += math.log(math.comb(n, k)) + k * math.log(p) + (n - k) * math.log1p(-p)
    return total


def log_beta(a, b):
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def gamma_density(x, shape, rate):
    """The gamma distribution's density, through math.gamma."""
    return rate ** shape * x ** (shape - 1.0) * math.exp(-rate * x) / math.gamma(shape)


# --- pricing -------------------------------------------------------------------------------

def _phi(z):
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def black_scholes_erf(s, k, t, r, sigma):
    """A European call, with the normal distribution written through math.erf."""
    d1 = (math.log(s / k) + (r + 0.5 * sigma * sigma) * t) / (sigma * math.sqrt(t))
    d2 = d1 - sigma * math.sqrt(t)
    return s * _phi(d1) - k * math.exp(-r * t) * _phi(d2)


# --- series and special-function code -----------------------------------------------------

def stirling_lgamma(x):
    """log Gamma(x) by the recurrence up to 7 and Stirling's series: kinky in the trip count."""
    shift = 0.0
    while x < 7.0:
        shift += math.log(x)
        x += 1.0
    inv = 1.0 / x
    series = inv / 12.0 - inv ** 3 / 360.0 + inv ** 5 / 1260.0
    return (x - 0.5) * math.log(x) - x + 0.5 * math.log(2.0 * math.pi) + series - shift


def exp_taylor(x):
    """exp(x) by its Taylor series, with factorial of the loop index."""
    total = 0.0
    for n in range(12):
        total += x ** n / math.factorial(n)
    return total


def guarded_ratio(x, y):
    """Input guards with isnan/isfinite/isclose decide, and are not differentiated."""
    if math.isnan(x) or not math.isfinite(y):
        return 0.0
    if math.isclose(x, y, rel_tol=1e-12):
        return x
    return (math.expm1(x) - math.expm1(y)) / (x - y)


# --- sums, products and norms written out --------------------------------------------------

def compensated_energy(x, y, z):
    return math.fsum([x * x, 1e-3 * y, -z * x, math.sin(y) * z])


def geometric_mean(a, b, c):
    return math.prod((a, b, c)) ** (1.0 / 3.0)


def vector_norms(x, y, z):
    return math.hypot(x, y, z) + math.dist((x, y, z), (1.0, -0.5, 2.0)) + math.hypot(x - y)


def scaled(x, y):
    return math.ldexp(x, 3) * y + math.remainder(x * y, 0.75) + math.nextafter(x, 0.0)


MATH_CASES = [
    case(poisson_loglik, (-1.0, 1.0), (-0.3, 0.3)),
    case(negative_binomial_loglik, (0.5, 6.0), (0.2, 0.8)),
    case(binomial_loglik, (0.1, 0.9)),
    case(log_beta, (0.2, 5.0), (0.2, 5.0)),
    case(gamma_density, (0.2, 4.0), (0.5, 4.0), (0.3, 3.0)),
    case(black_scholes_erf, (80.0, 120.0), (90.0, 110.0), (0.1, 2.0), (0.0, 0.08), (0.1, 0.6)),
    case(stirling_lgamma, (0.3, 12.0), kinky=True),
    case(exp_taylor, (-2.0, 2.0)),
    case(guarded_ratio, (0.0, 1.0), (1.5, 3.0), kinky=True),
    case(compensated_energy, (-2.0, 2.0), (-2.0, 2.0), (-2.0, 2.0)),
    case(geometric_mean, (0.5, 3.0), (0.5, 3.0), (0.5, 3.0)),
    case(vector_norms, (-2.0, 2.0), (-2.0, 2.0), (-2.0, 2.0)),
    case(scaled, (0.5, 2.0), (0.5, 2.0), kinky=True),
]

SCIPY_CASES = ["black_scholes_norm", "black_scholes_keywords", "gaussian_loglik",
               "poisson_gammaln", "probit_loglik", "logistic_loglik"]
HAVE_SCIPY = importlib.util.find_spec("scipy") is not None

if HAVE_SCIPY:
    import scipy.stats as st
    from scipy import special
    from scipy.special import expit, gammaln, log_ndtr
    from scipy.stats import norm

    def black_scholes_norm(s, k, t, r, sigma):
        """A European call with scipy.stats.norm.cdf."""
        d1 = (math.log(s / k) + (r + 0.5 * sigma ** 2) * t) / (sigma * math.sqrt(t))
        d2 = d1 - sigma * math.sqrt(t)
        return s * norm.cdf(d1) - k * math.exp(-r * t) * norm.cdf(d2)

    def black_scholes_keywords(s, k, t, r, sigma):
        """The same price, through st.norm.cdf with loc and scale by keyword (the vega in
        the scale, d1 through the location)."""
        root = sigma * math.sqrt(t)
        m = math.log(s / k) + (r + 0.5 * sigma * sigma) * t
        return s * st.norm.cdf(m, loc=0.0, scale=root) - k * math.exp(-r * t) * st.norm.cdf(
            m - root * root, scale=root)

    def gaussian_loglik(mu, sigma):
        total = 0.0
        for x in EXPOSURE:
            total += norm.logpdf(x, loc=mu, scale=sigma)
        return total + norm.logcdf(mu, 1.0, 2.0) + norm.pdf(sigma, 1.0)

    def poisson_gammaln(rate, r):
        total = 0.0
        for k in COUNTS:
            total += k * math.log(rate) - rate - gammaln(k + 1.0) + special.gammaln(k + r)
        return total - len(COUNTS) * special.gammaln(r) + special.digamma(r)

    def probit_loglik(a, b):
        total = 0.0
        for k, e in zip(COUNTS, EXPOSURE):
            z = a + b * e
            total += log_ndtr(z) if k > 2 else log_ndtr(-z)
        return total + special.ndtri(0.3 + 0.1 * special.ndtr(a))

    def logistic_loglik(w, c):
        total = 0.0
        for k, e in zip(COUNTS, EXPOSURE):
            p = expit(w * e + c)
            y = 1.0 if k > 2 else 0.0
            total += special.xlogy(y, p) + special.xlog1py(1.0 - y, -p)
        return total + special.logit(0.2 + 0.5 * expit(c)) + special.erfc(w) + special.erf(c)

    SCIPY_ONLY = [
        case(black_scholes_norm, (80.0, 120.0), (90.0, 110.0), (0.1, 2.0), (0.0, 0.08),
             (0.1, 0.6)),
        case(black_scholes_keywords, (80.0, 120.0), (90.0, 110.0), (0.1, 2.0), (0.0, 0.08),
             (0.1, 0.6)),
        case(gaussian_loglik, (-1.0, 3.0), (0.5, 3.0)),
        case(poisson_gammaln, (0.5, 4.0), (0.5, 5.0)),
        case(probit_loglik, (-1.0, 1.0), (-0.5, 0.5)),
        case(logistic_loglik, (-1.0, 1.0), (-1.0, 1.0)),
    ]
else:
    SCIPY_ONLY = []

CASES = MATH_CASES + SCIPY_ONLY
