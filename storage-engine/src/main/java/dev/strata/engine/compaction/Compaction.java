package dev.strata.engine.compaction;

import dev.strata.engine.version.FileMetadata;

import java.util.ArrayList;
import java.util.List;

/**
 * One compaction to run: input files of {@code level} and the overlapping files of
 * {@code outputLevel}, merged into new files at {@code outputLevel}. The output level is the
 * next one, except for a manual rewrite of the bottommost level in place (then both are equal
 * and {@code outputInputs} is empty).
 *
 * @param level        the level whose files start the compaction
 * @param outputLevel  where the merged files go: {@code level + 1}, or {@code level} for an in-place rewrite
 * @param inputs       files of {@code level}
 * @param outputInputs overlapping files of {@code outputLevel} (other than the inputs)
 * @param grandparents overlapping files of {@code level + 2}; outputs are cut so that no
 *                     single output overlaps too many of them (which would make its own
 *                     later compaction expensive)
 * @param bottommost   no level below the output holds data: the output gets the bottommost codec
 * @param trivialMove  one input, nothing to merge with, same codec: move the file instead of rewriting it
 * @param reason       why it runs
 */
public record Compaction(int level, int outputLevel, List<FileMetadata> inputs, List<FileMetadata> outputInputs,
                         List<FileMetadata> grandparents, boolean bottommost, boolean trivialMove, Reason reason) {

    /** Why a compaction runs. */
    public enum Reason {
        /** A level is over its file-count or size target. */
        SCORE,
        /** {@code compactRange} asked for it. */
        MANUAL,
        /** A table points into a value-log file chosen for garbage collection. */
        GARBAGE,
        /**
         * A table points into a value-log file holding provisional records (stored with an
         * adaptive policy's faster codec), chosen while the engine is calm to recompress them.
         */
        RECOMPRESS
    }

    public Compaction {
        if (outputLevel != level + 1 && !(outputLevel == level && outputInputs.isEmpty() && level > 0)) {
            throw new IllegalArgumentException("L" + level + " -> L" + outputLevel);
        }
        inputs = List.copyOf(inputs);
        outputInputs = List.copyOf(outputInputs);
        grandparents = List.copyOf(grandparents);
    }

    public List<FileMetadata> allInputs() {
        List<FileMetadata> all = new ArrayList<>(inputs);
        all.addAll(outputInputs);
        return all;
    }

    public long inputBytes() {
        long sum = 0;
        for (FileMetadata f : inputs) {
            sum += f.fileSize();
        }
        for (FileMetadata f : outputInputs) {
            sum += f.fileSize();
        }
        return sum;
    }

    @Override
    public String toString() {
        return "Compaction[L" + level + "->L" + outputLevel() + " " + inputs.size() + "+" + outputInputs.size()
                + " files, " + inputBytes() + "B" + (trivialMove ? ", move" : "") + ", " + reason
                + (bottommost ? ", bottommost" : "") + "]";
    }
}
