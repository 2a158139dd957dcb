package dev.strata.bench.cluster;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;

/**
 * The Strata build that {@code versus-etcd} starts its nodes from: a repository checkout whose
 * server module is built ({@code server/target/strata-server-VERSION.jar} and
 * {@code server/target/lib/}), as {@code bin/strata-dev} uses it.
 *
 * @param root      the repository root
 * @param serverJar the server's jar
 * @param version   the jar's Implementation-Version (the project version), or "unknown"
 */
record StrataInstall(Path root, Path serverJar, String version) {

    /**
     * Finds the build under {@code given}, or, when null, under the checkout this benchmark's own
     * jar lies in ({@code ROOT/bench/target/strata-bench-*.jar}), else under the current directory.
     *
     * @throws IllegalStateException when there is no built server there, saying how to build it
     */
    static StrataInstall find(Path given) throws IOException {
        Path root = given != null ? given : fromOwnLocation();
        if (root == null) {
            root = Path.of("").toAbsolutePath();
        }
        root = root.toAbsolutePath().normalize();
        Path jar = serverJar(root.resolve("server/target"));
        if (jar == null || !Files.isDirectory(root.resolve("server/target/lib"))) {
            throw new IllegalStateException("no built Strata server under " + root + " (server/target/strata-server-*.jar and "
                    + "server/target/lib/); build it with: mvn -DskipTests install -pl server -am, or name another checkout "
                    + "with --strata-root");
        }
        String version;
        try (JarFile j = new JarFile(jar.toFile())) {
            version = j.getManifest() == null ? null : j.getManifest().getMainAttributes().getValue("Implementation-Version");
        }
        return new StrataInstall(root, jar, version == null ? "unknown" : version);
    }

    /** The class path of a node: the jar and every library beside it (the java launcher expands {@code lib/*}). */
    String classpath() {
        return serverJar + java.io.File.pathSeparator + root.resolve("server/target/lib") + "/*";
    }

    /** The checkout holding this class's jar or classes directory, when it has a built server. */
    private static Path fromOwnLocation() {
        try {
            Path own = Path.of(StrataInstall.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // ROOT/bench/target/strata-bench-*.jar or ROOT/bench/target/classes
            Path root = own.getParent() == null || own.getParent().getParent() == null ? null
                    : own.getParent().getParent().getParent();
            return root != null && serverJar(root.resolve("server/target")) != null ? root : null;
        } catch (Exception e) {
            return null;
        }
    }

    private static Path serverJar(Path target) throws IOException {
        if (!Files.isDirectory(target)) {
            return null;
        }
        Path newest = null;
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(target, "strata-server-*.jar")) {
            for (Path p : jars) {
                String name = p.getFileName().toString();
                if (name.endsWith("-sources.jar") || name.endsWith("-tests.jar") || name.endsWith("-javadoc.jar")) {
                    continue;
                }
                if (newest == null || Files.getLastModifiedTime(p).compareTo(Files.getLastModifiedTime(newest)) > 0) {
                    newest = p;
                }
            }
        }
        return newest;
    }
}
