"""Validates JSON samples against the schemas of an OpenAPI 3.1 document, with
openapi-schema-validator (PyPI; scripts/setup installs it into .build/python-tools).

Usage: openapi_validate.py DOCUMENT SAMPLES
SAMPLES is a JSON array of {"label", "schema", "body"}: `schema` names one of the document's
components.schemas, `body` is the JSON answer. Prints one line per problem (label: message),
then "validated N"; exits 1 when any sample fails."""
import json
import sys

from openapi_schema_validator import OAS31Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012


def main():
    document_path, samples_path = sys.argv[1], sys.argv[2]
    with open(document_path) as handle:
        document = json.load(handle)
    with open(samples_path) as handle:
        samples = json.load(handle)
    OAS31Validator.check_schema({"$ref": "urn:walletwatch:spec#/components/schemas/Status"})
    resource = Resource.from_contents(document, default_specification=DRAFT202012)
    registry = Registry().with_resource(uri="urn:walletwatch:spec", resource=resource)
    schemas = document["components"]["schemas"]
    failed = 0
    for sample in samples:
        name = sample["schema"]
        if name not in schemas:
            print(f"{sample['label']}: the document has no schema {name}")
            failed += 1
            continue
        validator = OAS31Validator({"$ref": f"urn:walletwatch:spec#/components/schemas/{name}"}, registry=registry)
        errors = sorted(validator.iter_errors(sample["body"]), key=lambda error: list(error.path))
        for error in errors:
            where = "/".join(str(part) for part in error.path)
            print(f"{sample['label']}: {name} at /{where}: {error.message}")
        failed += 1 if errors else 0
    print(f"validated {len(samples)}")
    sys.exit(1 if failed else 0)


main()
