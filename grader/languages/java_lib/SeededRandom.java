package graderseed;

import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * The grader's stand-in for a program's unseeded randomness (compiled with the program; never the student's code).
 *
 * The build rewrites the program's classes so that {@code new Random()}, {@code Math.random()} and
 * {@code Collections.shuffle(list)} come here: every generator is seeded from the next number of one
 * sequence that starts at the case's {@code GRADER_SEED}, as Python's launcher does with {@code random}.
 * The same case then deals the same cards on every grading. An explicit seed stays the program's own.
 */
public final class SeededRandom extends Random {
    private static final long serialVersionUID = 1L;
    private static final Random SEEDS = new Random(caseSeed());
    /** Math.random()'s numbers: a generator without atomic updates (the handout's shuffle draws 200,002 per deal). */
    private static final SplittableRandom MATH = new SplittableRandom(nextSeed());
    private static Random shuffles;

    public SeededRandom() {
        super(nextSeed());
    }

    public SeededRandom(long seed) {
        super(seed);
    }

    private static long caseSeed() {
        String value = System.getenv("GRADER_SEED");
        try {
            return value == null ? 0L : Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return 0L;
        }
    }

    private static synchronized long nextSeed() {
        return SEEDS.nextLong();
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
        synchronized (SeededRandom.class) {
            if (shuffles == null) {
                shuffles = new Random(nextSeed());
            }
        }
        Collections.shuffle(list, shuffles);
    }
}
