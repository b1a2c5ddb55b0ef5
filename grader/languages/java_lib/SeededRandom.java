package graderseed;

import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

/**
 * The grader's stand-in for a program's unseeded randomness (compiled with the program; never the student's code).
 *
 * The build rewrites the program's classes so that {@code new Random()}, {@code Math.random()},
 * {@code StrictMath.random()}, {@code Collections.shuffle}, {@code SecureRandom} (see SeededSecureRandom) and every
 * call on {@code ThreadLocalRandom} come here: every generator is seeded from the next number of one sequence that
 * starts at the case's {@code GRADER_SEED}, as Python's launcher does with {@code random}. The same case then deals
 * the same cards on every grading. An explicit seed stays the program's own, unless it is a reading of the clock
 * ({@code new Random(System.nanoTime())}): that is a seed only in name, and is replaced like no seed at all.
 * Java 8 API only: the grader's JDK compiles this file with the program.
 */
public final class SeededRandom extends Random {
    private static final long serialVersionUID = 1L;
    /** How far back a seed may have been read off the clock to count as the clock's. */
    private static final long CLOCK_WINDOW_MS = 120_000L;
    private static final Random SEEDS = new Random(caseSeed());
    /** Math.random()'s numbers: a generator without atomic updates (the handout's shuffle draws 200,002 per deal). */
    private static final SplittableRandom MATH = new SplittableRandom(nextSeed());
    private static Random shuffles;

    public SeededRandom() {
        super(nextSeed());
    }

    public SeededRandom(long seed) {
        super(seed);      // Random's constructor calls setSeed below
    }

    /** An explicit seed stays the program's own; a clock reading is replaced by the case's next seed. */
    @Override
    public synchronized void setSeed(long seed) {
        super.setSeed(fromClock(seed) ? nextSeed() : seed);
    }

    private static long caseSeed() {
        String value = System.getenv("GRADER_SEED");
        try {
            return value == null ? 0L : Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return 0L;
        }
    }

    static synchronized long nextSeed() {
        return SEEDS.nextLong();
    }

    /** A reading of currentTimeMillis (or in seconds) or of nanoTime taken in the last two minutes. */
    static boolean fromClock(long seed) {
        long millis = System.currentTimeMillis();
        return near(seed, millis, CLOCK_WINDOW_MS) || near(seed, millis / 1000, CLOCK_WINDOW_MS / 1000)
            || near(seed, System.nanoTime(), CLOCK_WINDOW_MS * 1_000_000L);
    }

    private static boolean near(long seed, long clock, long window) {
        long behind = clock - seed;
        return behind > -window && behind < window;
    }

    /**
     * Math.random(): the next double of one seeded generator, in [0, 1). Not synchronized: a console program
     * draws from one thread; threads racing would at worst share a number, never fail.
     */
    public static double random() {
        return MATH.nextDouble();
    }

    /** Collections.shuffle(list): with one seeded generator. */
    public static void shuffle(List<?> list) {
        Collections.shuffle(list, shuffles());
    }

    /** Collections.shuffle(list, rnd): a ThreadLocalRandom, which no one can seed, is replaced by a seeded one. */
    public static void shuffle(List<?> list, Random rnd) {
        Collections.shuffle(list, rnd instanceof ThreadLocalRandom ? shuffles() : rnd);
    }

    private static synchronized Random shuffles() {
        if (shuffles == null) {
            shuffles = new Random(nextSeed());
        }
        return shuffles;
    }

    // ---------------------------------------------------------------- ThreadLocalRandom's methods, seeded
    // The build turns `invokevirtual ThreadLocalRandom.m(args)` into `invokestatic SeededRandom.m(tlr, args)`:
    // the receiver stays on the stack as the first argument and is ignored. java_seed.THREAD_LOCAL lists them.

    /** The generator behind every ThreadLocalRandom call (made on first use, so that programs without one draw no seed). */
    private static final class Local {
        static final SplittableRandom NUMBERS = new SplittableRandom(nextSeed());
        static final Random GAUSSIAN = new Random(nextSeed());
    }

    public static int nextInt(ThreadLocalRandom r) {
        return Local.NUMBERS.nextInt();
    }

    public static int nextInt(ThreadLocalRandom r, int bound) {
        return Local.NUMBERS.nextInt(bound);
    }

    public static int nextInt(ThreadLocalRandom r, int origin, int bound) {
        return Local.NUMBERS.nextInt(origin, bound);
    }

    public static long nextLong(ThreadLocalRandom r) {
        return Local.NUMBERS.nextLong();
    }

    public static long nextLong(ThreadLocalRandom r, long bound) {
        return Local.NUMBERS.nextLong(bound);
    }

    public static long nextLong(ThreadLocalRandom r, long origin, long bound) {
        return Local.NUMBERS.nextLong(origin, bound);
    }

    public static double nextDouble(ThreadLocalRandom r) {
        return Local.NUMBERS.nextDouble();
    }

    public static double nextDouble(ThreadLocalRandom r, double bound) {
        return Local.NUMBERS.nextDouble(bound);
    }

    public static double nextDouble(ThreadLocalRandom r, double origin, double bound) {
        return Local.NUMBERS.nextDouble(origin, bound);
    }

    public static boolean nextBoolean(ThreadLocalRandom r) {
        return Local.NUMBERS.nextBoolean();
    }

    public static float nextFloat(ThreadLocalRandom r) {
        return (Local.NUMBERS.nextInt() >>> 8) * (1.0f / (1 << 24));
    }

    public static double nextGaussian(ThreadLocalRandom r) {
        return Local.GAUSSIAN.nextGaussian();
    }

    public static void nextBytes(ThreadLocalRandom r, byte[] bytes) {
        Local.GAUSSIAN.nextBytes(bytes);
    }

    public static IntStream ints(ThreadLocalRandom r) {
        return Local.NUMBERS.split().ints();
    }

    public static IntStream ints(ThreadLocalRandom r, long size) {
        return Local.NUMBERS.split().ints(size);
    }

    public static IntStream ints(ThreadLocalRandom r, int origin, int bound) {
        return Local.NUMBERS.split().ints(origin, bound);
    }

    public static IntStream ints(ThreadLocalRandom r, long size, int origin, int bound) {
        return Local.NUMBERS.split().ints(size, origin, bound);
    }

    public static LongStream longs(ThreadLocalRandom r) {
        return Local.NUMBERS.split().longs();
    }

    public static LongStream longs(ThreadLocalRandom r, long size) {
        return Local.NUMBERS.split().longs(size);
    }

    public static LongStream longs(ThreadLocalRandom r, long origin, long bound) {
        return Local.NUMBERS.split().longs(origin, bound);
    }

    public static LongStream longs(ThreadLocalRandom r, long size, long origin, long bound) {
        return Local.NUMBERS.split().longs(size, origin, bound);
    }

    public static DoubleStream doubles(ThreadLocalRandom r) {
        return Local.NUMBERS.split().doubles();
    }

    public static DoubleStream doubles(ThreadLocalRandom r, long size) {
        return Local.NUMBERS.split().doubles(size);
    }

    public static DoubleStream doubles(ThreadLocalRandom r, double origin, double bound) {
        return Local.NUMBERS.split().doubles(origin, bound);
    }

    public static DoubleStream doubles(ThreadLocalRandom r, long size, double origin, double bound) {
        return Local.NUMBERS.split().doubles(size, origin, bound);
    }
}
