/*
 * StdOut: prints to standard output in UTF-8, in the style of the Princeton introcs
 * library that intro-Java courses put on the classpath (written for the grader;
 * the same public methods).
 *
 * Compile: javac StdOut.java          Use: StdOut.println("Hello");
 */
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

public final class StdOut {
    private static final PrintWriter OUT =
        new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);

    private StdOut() { }

    /** Prints a line separator. */
    public static void println() {
        OUT.println();
    }

    /** Prints an object and a line separator. */
    public static void println(Object x) {
        OUT.println(x);
    }

    /** Prints an object; flushed at once, so a prompt shows before the program reads. */
    public static void print(Object x) {
        OUT.print(x);
        OUT.flush();
    }

    /** Prints a formatted string (US locale, as the course's copy does). */
    public static void printf(String format, Object... args) {
        OUT.printf(Locale.US, format, args);
        OUT.flush();
    }
}
