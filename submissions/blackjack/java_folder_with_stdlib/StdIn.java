/*
 * StdIn: reads numbers and text from standard input, in the style of the Princeton
 * introcs library that intro-Java courses put on the classpath (written for the grader;
 * the same public methods, so programs written against the course's copy compile).
 *
 * Compile: javac StdIn.java          Use: int n = StdIn.readInt();
 */
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Scanner;

public final class StdIn {
    private static Scanner scanner = new Scanner(new java.io.BufferedInputStream(System.in), "UTF-8");

    static {
        scanner.useLocale(Locale.US);
    }

    private StdIn() { }

    /** True when standard input holds nothing more but white space. */
    public static boolean isEmpty() {
        return !scanner.hasNext();
    }

    /** True when another line (possibly empty) can be read. */
    public static boolean hasNextLine() {
        return scanner.hasNextLine();
    }

    /** True when another character can be read. */
    public static boolean hasNextChar() {
        return scanner.hasNext() || scanner.hasNextLine();
    }

    /** The rest of the current line. */
    public static String readLine() {
        try {
            return scanner.nextLine();
        } catch (NoSuchElementException e) {
            return null;
        }
    }

    /** The next token, as a string. */
    public static String readString() {
        return scanner.next();
    }

    /** The next token, as an int (InputMismatchException when it is not one). */
    public static int readInt() {
        return scanner.nextInt();
    }

    /** The next token, as a double. */
    public static double readDouble() {
        return scanner.nextDouble();
    }

    /** The next token, as a long. */
    public static long readLong() {
        return scanner.nextLong();
    }

    /** The next token, as a boolean ("true"/"false" or "1"/"0"). */
    public static boolean readBoolean() {
        String token = readString();
        if ("true".equalsIgnoreCase(token) || "1".equals(token)) {
            return true;
        }
        if ("false".equalsIgnoreCase(token) || "0".equals(token)) {
            return false;
        }
        throw new java.util.InputMismatchException("not a boolean: " + token);
    }

    /** Everything left on standard input. */
    public static String readAll() {
        StringBuilder all = new StringBuilder();
        while (scanner.hasNextLine()) {
            all.append(scanner.nextLine()).append('\n');
        }
        return all.toString();
    }
}
