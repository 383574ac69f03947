"""`python -m spatial_hash.bench`: the benchmark (see spatial_hash.bench)."""
import sys

from spatial_hash.bench import main

sys.exit(main())
