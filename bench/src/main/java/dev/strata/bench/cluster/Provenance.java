package dev.strata.bench.cluster;

import dev.strata.cli.bench.MachineInfo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a comparison ran on and with, for the report: without the machine, the commit and both
 * systems' versions the figures cannot be reproduced.
 *
 * @param machine          the machine and the driver's JVM
 * @param cpuModel         {@code model name} from /proc/cpuinfo, or "unknown"
 * @param commit           {@code git rev-parse --short HEAD} of the Strata checkout, or "unknown"
 * @param worktreeModified whether tracked files differ from that commit (null when unknown)
 * @param strataVersion    the project version of the server jar, with the commit
 * @param strataServerJar  the jar the nodes ran and when it was built: it may hold changes the
 *                         commit does not (see worktreeModified)
 * @param etcdVersion      the first line of {@code etcd --version}
 */
record Provenance(MachineInfo machine, String cpuModel, String commit, Boolean worktreeModified, String strataVersion,
                  String strataServerJar, String etcdVersion) {

    static Provenance of(StrataInstall strata, Path etcd) {
        String commit = firstLine(List.of("git", "-C", strata.root().toString(), "rev-parse", "--short", "HEAD"));
        String status = output(List.of("git", "-C", strata.root().toString(), "status", "--porcelain", "--untracked-files=no"));
        return new Provenance(MachineInfo.current(), readCpuModel(), commit == null ? "unknown" : commit,
                status == null ? null : !status.isBlank(),
                strata.version() + " (" + (commit == null ? "unknown commit" : commit) + ")",
                strata.serverJar() + " (built " + modified(strata.serverJar()) + ")",
                orUnknown(firstLine(List.of(etcd.toString(), "--version"))));
    }

    private static String readCpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toInstant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        } catch (IOException e) {
            return "at an unknown time";
        }
    }

    private static String orUnknown(String s) {
        return s == null ? "unknown" : s;
    }

    private static String firstLine(List<String> command) {
        String out = output(command);
        return out == null || out.isBlank() ? null : out.strip().lines().findFirst().orElse(null);
    }

    /** The standard output of {@code command}, or null when it cannot run or fails. */
    private static String output(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes());
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
