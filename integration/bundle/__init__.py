"""pk-bundle's modules: spec (parse, validate, expand), build, run, collect.
integration/pk-bundle.py is the command line; integration/README.md the flow."""
