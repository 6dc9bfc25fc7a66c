# Deliberately empty: the benchmark servers take their options from the command line.
