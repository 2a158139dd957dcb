package dev.strata.cli.bench;

/** Chooses the number of the key the next operation touches. Not thread-safe: one per worker. */
interface KeyChooser {
    long next();
}
