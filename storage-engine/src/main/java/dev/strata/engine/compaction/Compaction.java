package dev.strata.engine.compaction;

import dev.strata.engine.version.FileMetadata;

import java.util.ArrayList;
import java.util.List;

/**
 * One compaction to run: input files of {@code level} and the overlapping files of
 * {@code level + 1}, merged into new files at {@code level + 1}.
 *
 * @param level        the level whose files start the compaction
 * @param inputs       files of {@code level}
 * @param outputInputs overlapping files of {@code level + 1}
 * @param grandparents overlapping files of {@code level + 2}; outputs are cut so that no
 *                     single output overlaps too many of them (which would make its own
 *                     later compaction expensive)
 * @param bottommost   no level below the output holds data: the output gets the bottommost codec
 * @param trivialMove  one input, nothing to merge with, same codec: move the file instead of rewriting it
 * @param manual       started by {@code compactRange}, not by a score
 */
public record Compaction(int level, List<FileMetadata> inputs, List<FileMetadata> outputInputs,
                         List<FileMetadata> grandparents, boolean bottommost, boolean trivialMove, boolean manual) {

    public Compaction {
        inputs = List.copyOf(inputs);
        outputInputs = List.copyOf(outputInputs);
        grandparents = List.copyOf(grandparents);
    }

    public int outputLevel() {
        return level + 1;
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
                + " files, " + inputBytes() + "B" + (trivialMove ? ", move" : "") + (manual ? ", manual" : "")
                + (bottommost ? ", bottommost" : "") + "]";
    }
}
