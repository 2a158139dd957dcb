/**
 * The receiving side of checkpoint shipping: the fetcher that stages a checkpoint's files (or an
 * incremental chain's deltas) from a node's internal {@code CheckpointTransfer} service, with
 * resume and per-chunk verification; the staging area; the install of a staged checkpoint into a
 * data directory; and the backups ({@code strata checkpoint save} and {@code restore}) built on
 * them. The chunk format is here too, since both sides share it.
 */
package dev.strata.transfer;
