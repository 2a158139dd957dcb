package dev.strata.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code strata --version}: the client jar's version, from its manifest. */
final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Version.class.getPackage().getImplementationVersion();
        return new String[] {"strata " + (v != null ? v : "(development build)")};
    }
}
