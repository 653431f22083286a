"""x"""
RECORDS = {}
METHODS = {}
STATICS = {}
