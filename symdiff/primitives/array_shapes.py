"""x"""
RECORDS = {}
METHODS = {}
STATICS = {}
HINTS = {}
