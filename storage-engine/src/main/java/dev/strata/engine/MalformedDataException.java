package dev.strata.engine;

/**
 * Encoded bytes that are not what they claim to be: shorter than their own lengths say, or
 * holding a field that cannot be decoded. Thrown by the decoders of the engine's formats that
 * callers feed bytes to (a checkpoint manifest or delta received over the network); the caller
 * knows where the bytes came from and says so in its own error.
 */
public class MalformedDataException extends RuntimeException {
    public MalformedDataException(String message) {
        super(message);
    }
}
