package dev.strata.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Member ids are positive: 0 means "none" in the API. */
final class MemberIds {
    private MemberIds() {}

    static void requirePositive(CommandSpec spec, long id) {
        if (id <= 0) {
            throw new ParameterException(spec.commandLine(), "a member id is a positive number, got " + id);
        }
    }
}
