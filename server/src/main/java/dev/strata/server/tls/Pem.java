package dev.strata.server.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the PEM files TLS is configured with: X.509 certificates ({@code CERTIFICATE} blocks)
 * and unencrypted PKCS#8 private keys ({@code PRIVATE KEY}, what {@code openssl genpkey} and
 * {@code openssl pkey} write). Every error names the setting and the file and says what to do.
 */
final class Pem {
    private static final Pattern BLOCK = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----(.*?)-----END \\1-----", Pattern.DOTALL);
    /** Key algorithms a PKCS#8 key is tried as, most common first. */
    private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS", "DSA");

    private Pem() {}

    /** One {@code -----BEGIN type-----} block, decoded. */
    private record Block(String type, byte[] der) {}

    /**
     * The certificates in {@code file}, in file order (a chain: the leaf first).
     *
     * @param setting the configuration key that named the file, for messages
     * @throws IllegalArgumentException when the file cannot be read or holds no certificate
     */
    static List<X509Certificate> certificates(Path file, String setting) {
        List<Block> blocks = blocks(file, setting);
        List<X509Certificate> certs = new ArrayList<>();
        CertificateFactory factory;
        try {
            factory = CertificateFactory.getInstance("X.509");
        } catch (CertificateException e) {
            throw new IllegalStateException("this JVM has no X.509 support", e);
        }
        for (Block b : blocks) {
            if (!b.type().equals("CERTIFICATE")) {
                continue;
            }
            try {
                certs.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(b.der())));
            } catch (CertificateException e) {
                throw error(setting, file, "certificate " + (certs.size() + 1) + " does not parse: " + e.getMessage());
            }
        }
        if (certs.isEmpty()) {
            boolean key = blocks.stream().anyMatch(b -> b.type().endsWith("PRIVATE KEY"));
            throw error(setting, file, "holds no PEM CERTIFICATE block" + (key ? " (it holds a private key: are the "
                    + "certificate and key files swapped?)" : ""));
        }
        return certs;
    }

    /**
     * The private key in {@code file}.
     *
     * @param setting the configuration key that named the file, for messages
     * @throws IllegalArgumentException when the file cannot be read, holds no key, or holds one
     *         in a format other than unencrypted PKCS#8 (the message gives the openssl command
     *         that converts it)
     */
    static PrivateKey privateKey(Path file, String setting) {
        List<Block> blocks = blocks(file, setting);
        String convert = "; convert it to an unencrypted PKCS#8 key with: openssl pkey -in " + file + " -out "
                + file.getFileName() + ".pkcs8";
        for (Block b : blocks) {
            switch (b.type()) {
                case "PRIVATE KEY" -> {
                    return pkcs8(b.der(), file, setting);
                }
                case "RSA PRIVATE KEY" -> throw error(setting, file, "holds a PKCS#1 RSA key" + convert);
                case "EC PRIVATE KEY" -> throw error(setting, file, "holds a SEC1 EC key" + convert);
                case "ENCRYPTED PRIVATE KEY" -> throw error(setting, file, "holds an encrypted key" + convert);
                default -> {
                    // a certificate or parameters beside the key: skipped
                }
            }
        }
        boolean cert = blocks.stream().anyMatch(b -> b.type().equals("CERTIFICATE"));
        throw error(setting, file, "holds no PEM PRIVATE KEY block" + (cert ? " (it holds a certificate: are the "
                + "certificate and key files swapped?)" : ""));
    }

    private static PrivateKey pkcs8(byte[] der, Path file, String setting) {
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(spec);
            } catch (GeneralSecurityException notThisOne) {
                // the next algorithm
            }
        }
        throw error(setting, file, "holds a PRIVATE KEY that is not an " + String.join(", ", KEY_ALGORITHMS) + " key");
    }

    /** The error for a file that could not be read, naming the setting, the file and why. */
    static IllegalArgumentException unreadable(String setting, Path file, IOException e) {
        if (e instanceof NoSuchFileException) {
            return error(setting, file, "no such file");
        }
        if (e instanceof AccessDeniedException) {
            return error(setting, file, "not readable by this process (permission denied)");
        }
        return error(setting, file, "cannot be read: " + e);
    }

    private static List<Block> blocks(Path file, String setting) {
        String text;
        try {
            // Latin-1 never fails to decode, so a binary (DER) file is reported as "not PEM".
            text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw unreadable(setting, file, e);
        }
        List<Block> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            try {
                blocks.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2).trim())));
            } catch (IllegalArgumentException e) {
                throw error(setting, file, "its " + m.group(1) + " block is not valid base64: " + e.getMessage());
            }
        }
        if (blocks.isEmpty()) {
            throw error(setting, file, "is not PEM (no -----BEGIN ...----- block)");
        }
        return blocks;
    }

    static IllegalArgumentException error(String setting, Path file, String what) {
        return new IllegalArgumentException(setting + " (" + file + "): " + what);
    }
}
