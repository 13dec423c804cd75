"""The size limits `make lint` holds the app to: modules up to 600 lines, functions up to 60.

Long modules and functions are where a newcomer gets lost; the limits keep each piece small
enough to read at once. Migrations are generated and left out.
"""

import ast
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("scoring", "leagues", "kartenliga")
MODULE_LINES = 600
FUNCTION_LINES = 60


def sources():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def problems(path):
    text = path.read_text()
    name = path.relative_to(ROOT)
    lines = len(text.splitlines())
    if lines > MODULE_LINES:
        yield f"{name}: {lines} lines (at most {MODULE_LINES})"
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > FUNCTION_LINES:
                yield f"{name}:{node.lineno} {node.name}: {length} lines (at most {FUNCTION_LINES})"


def main():
    found = [problem for path in sources() for problem in problems(path)]
    for problem in found:
        print(problem)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
