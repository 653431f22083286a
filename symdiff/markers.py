"""Functions a user may call inside differentiated code to steer differentiation."""


def stop_gradient(x):
    """Return ``x`` unchanged, but let no derivative flow through it.

    symdiff's generator, the tape engine and the sympy witness all honour it:
    ``stop_gradient(mask) * loss`` differentiates as if ``mask`` were a constant.
    """
    detach = getattr(x, "detach", None)
    return detach() if detach is not None else x


CUSTOM_RULES = {}  # user function -> tuple of partials, one per parameter (None: zero)


def defgrad(fn, *partials):
    """Give ``fn`` its own derivative rule; symdiff then calls it instead of reading ``fn``.

    One callable per parameter of ``fn``, each taking ``fn``'s arguments followed by
    its output and returning the partial derivative by that parameter; ``None``
    means the output does not depend on it.  ``symdiff.check`` verifies the rule
    against finite differences and names the rule and argument that disagree.

        def softplus(x):
            return math.log1p(math.exp(x))

        symdiff.defgrad(softplus, lambda x, out: 1 / (1 + math.exp(-x)))
    """
    params = len(rule_parameters(fn))
    if len(partials) != params:
        raise TypeError(f"{fn.__name__} takes {params} arguments: give {params} partials "
                        f"(None for no dependence), not {len(partials)}")
    for partial in partials:
        if partial is not None and not callable(partial):
            raise TypeError(f"a partial of {fn.__name__} must be callable or None")
    CUSTOM_RULES[fn] = tuple(partials)
    return fn


def rule_parameters(fn):
    """The names of the positional parameters a rule of ``fn`` has partials for: those of
    its signature, so a decorator's wrapper taking ``*args`` has those it passes on."""
    import inspect
    return [p.name for p in inspect.signature(fn).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def custom_grad(*partials):
    """Decorator form of ``defgrad``: ``@custom_grad(dx_rule, dy_rule)``."""
    def decorate(fn):
        return defgrad(fn, *partials)
    return decorate
