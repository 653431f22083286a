"""What symdiff knows about each primitive: its derivative rules, whether it is
pure, and the helper functions generated code defines for some of them.
"""
