"""Functions a user may call inside differentiated code to steer differentiation."""


def stop_gradient(x):
    """Return ``x`` unchanged, but let no derivative flow through it.

    symdiff's generator, the tape engine and the sympy witness all honour it:
    ``stop_gradient(mask) * loss`` differentiates as if ``mask`` were a constant.
    """
    detach = getattr(x, "detach", None)
    return detach() if detach is not None else x
