"""Every reach into a library's private parts, one small adapter module per library.

pnpforge buys speed with a few internals (reportlab's document and font state, a ruamel resolver
subclass, leaving the process with `os._exit`, pydantic's plugin loader). Each lives here and
nowhere else, with `shape_problems()` saying, in words, what a new release of the library changed;
tests/test_internals.py fails with those words, so an upgrade breaks a test, not every command.
"""
