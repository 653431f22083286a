"""The intermediate representation: the program passed between the passes, and the
names it uses.
"""
