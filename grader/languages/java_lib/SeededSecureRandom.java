package graderseed;

import java.security.Provider;
import java.security.SecureRandom;
import java.security.SecureRandomSpi;
import java.util.Random;

/**
 * The grader's stand-in for a program's {@code SecureRandom} (compiled with the program; never the student's code).
 *
 * The build rewrites {@code new SecureRandom()}, {@code new SecureRandom(seed)} and the {@code getInstance} /
 * {@code getInstanceStrong} factories to make one of these: a SecureRandom whose bytes come from a generator seeded
 * by the case's {@code GRADER_SEED} (SeededRandom's sequence), so that a program dealing from it deals the same cards
 * on every grading. A card game needs a fair shuffle, not secrecy. Its own seeds are ignored: a SecureRandom's seed
 * adds to its randomness, it never fixes it. Java 8 API only.
 */
public final class SeededSecureRandom extends SecureRandom {
    private static final long serialVersionUID = 1L;

    public SeededSecureRandom() {
        super(new Bytes(SeededRandom.nextSeed()), null);
    }

    public SeededSecureRandom(byte[] seed) {
        this();
    }

    public static SecureRandom getInstance(String algorithm) {
        return new SeededSecureRandom();
    }

    public static SecureRandom getInstance(String algorithm, String provider) {
        return new SeededSecureRandom();
    }

    public static SecureRandom getInstance(String algorithm, Provider provider) {
        return new SeededSecureRandom();
    }

    public static SecureRandom getInstanceStrong() {
        return new SeededSecureRandom();
    }

    /** The bytes: a seeded Random's; seeding it again changes nothing. */
    private static final class Bytes extends SecureRandomSpi {
        private static final long serialVersionUID = 1L;
        private final Random numbers;

        Bytes(long seed) {
            numbers = new Random(seed);
        }

        @Override
        protected void engineSetSeed(byte[] seed) {
        }

        @Override
        protected void engineNextBytes(byte[] bytes) {
            numbers.nextBytes(bytes);
        }

        @Override
        protected byte[] engineGenerateSeed(int count) {
            byte[] seed = new byte[count];
            numbers.nextBytes(seed);
            return seed;
        }
    }
}
