"""Graph: placeholder."""


def build_graph(program):
    return None
