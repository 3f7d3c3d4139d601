"""Validates HTTP answers against an OpenAPI 3.1 document with openapi-schema-validator (PyPI;
scripts/setup installs it into .build/python-tools). The schema of each answer is the one the
document declares for its operation and status, found here from the request: the caller never
names it, so an answer cannot be checked against the wrong schema.

Usage: openapi_validate.py DOCUMENT SAMPLES
SAMPLES is a JSON array of {"label", "method", "path", "status", "body"}: `path` is the request's
path below the document's base (a query is ignored), `body` the JSON answer (for a stream, one
message). Prints one line per problem (label: message), then "validated N", then one line
"uncovered: METHOD PATH STATUS" for each operation of the document, and each of its 200
answers, that no sample exercised; exits 1 when any sample fails."""
import json
import re
import sys

from openapi_schema_validator import OAS31Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012


def operations(document):
    """(method, template, pattern, responses) for every operation of the document."""
    for template, item in document["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")
        for method, operation in item.items():
            if method in ("get", "post", "put", "delete", "patch"):
                yield method.upper(), template, pattern, operation["responses"]


def main():
    document_path, samples_path = sys.argv[1], sys.argv[2]
    with open(document_path) as handle:
        document = json.load(handle)
    with open(samples_path) as handle:
        samples = json.load(handle)
    resource = Resource.from_contents(document, default_specification=DRAFT202012)
    registry = Registry().with_resource(uri="urn:walletwatch:spec", resource=resource)
    known = list(operations(document))
    covered = set()
    failed = 0
    for sample in samples:
        label, method, path, status = sample["label"], sample["method"].upper(), sample["path"].split("?")[0], int(sample["status"])
        match = next(((template, responses) for m, template, pattern, responses in known if m == method and pattern.match(path)), None)
        if match is None:
            print(f"{label}: the document has no operation {method} {path}")
            failed += 1
            continue
        template, responses = match
        response = responses.get(str(status)) or responses.get("default")
        if response is None:
            print(f"{label}: {method} {template} declares no answer with status {status}")
            failed += 1
            continue
        covered.add((method, template, "200" if status == 200 else "error"))
        schemas = [content["schema"] for content in response.get("content", {}).values()]
        if len(schemas) != 1:
            print(f"{label}: {method} {template} {status} declares {len(schemas)} schemas, not one")
            failed += 1
            continue
        reference = schemas[0]["$ref"]
        validator = OAS31Validator({"$ref": "urn:walletwatch:spec" + reference}, registry=registry)
        errors = sorted(validator.iter_errors(sample["body"]), key=lambda error: list(error.path))
        for error in errors:
            where = "/".join(str(part) for part in error.path)
            print(f"{label}: {reference.rsplit('/', 1)[-1]} at /{where}: {error.message}")
        failed += 1 if errors else 0
    print(f"validated {len(samples)}")
    for method, template, _, _ in known:
        if (method, template, "200") not in covered:
            print(f"uncovered: {method} {template} 200")
    sys.exit(1 if failed else 0)


main()
