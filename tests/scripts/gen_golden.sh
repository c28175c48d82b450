#!/bin/sh
# The generated Markdown of tests/golden/data equals the golden files.
exec sh tests/golden.sh check gen
