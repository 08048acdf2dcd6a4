#!/usr/bin/python3
"""Checks JSON documents against a JSON Schema (draft 2020-12) with python3-jsonschema.

Usage: scripts/check-json-schema.py SCHEMA FILE...

SCHEMA is a schema file (`dfukit schema output flash > flash.schema.json`); each FILE holds one
JSON document (what a command printed on standard output). Prints one line per mistake,
`FILE: PATH: MESSAGE` (PATH like `$.error.kind`, `$` for the document itself), and one line
`N checked, N invalid`. Exit status: 0 when every document is valid, 1 when one is not (or is not
JSON), 2 when the schema is not a valid draft 2020-12 schema, or python3-jsonschema is missing.

Runs under Debian's /usr/bin/python3, which python3-jsonschema (installed by `make deps`) serves.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("check-json-schema: python3-jsonschema is not installed for " + sys.executable
          + ": run `make deps` (apt-get install python3-jsonschema)", file=sys.stderr)
    sys.exit(2)


def path_text(path):
    text = "$"
    for part in path:
        text += "[%d]" % part if isinstance(part, int) else "." + str(part)
    return text


def cause(error):
    """The mistake under an `anyOf` (a value that may be null): the branch's own error, not
    "is not of type 'null'"."""
    while error.context:
        branches = [e for e in error.context if not (e.validator == "type" and e.validator_value == "null")]
        if len(branches) != 1:
            break
        error = branches[0]
    return error


def main(arguments):
    if len(arguments) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    schema_path, documents = arguments[0], arguments[1:]
    try:
        with open(schema_path, encoding="utf-8") as file:
            schema = json.load(file)
        jsonschema.Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, jsonschema.exceptions.SchemaError) as error:
        print("%s: not a draft 2020-12 schema: %s" % (schema_path, getattr(error, "message", error)), file=sys.stderr)
        return 2
    validator = jsonschema.Draft202012Validator(schema)
    invalid = 0
    for document in documents:
        try:
            with open(document, encoding="utf-8") as file:
                instance = json.load(file)
        except (OSError, ValueError) as error:
            print("%s: $: not one JSON document: %s" % (document, error))
            invalid += 1
            continue
        errors = sorted(validator.iter_errors(instance), key=lambda error: list(map(str, error.absolute_path)))
        for error in map(cause, errors):
            print("%s: %s: %s" % (document, path_text(error.absolute_path), error.message))
        invalid += 1 if errors else 0
    print("%d checked, %d invalid" % (len(documents), invalid))
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
