"""Fills a form template with the fields given as KEY=VALUE arguments."""
import sys

fields = dict(arg.split("=", 1) for arg in sys.argv[2:])
print(open(sys.argv[1]).read().format(**fields))
