/**
 * Author: Red Team
 * Written: 01/12/2026
 * Last updated: 01/12/2026
 *
 * Compilation: javac Nothing.java
 * Execution: java Nothing
 *
 * Prints the first and the last lines of a Blackjack session and plays no game at all.
 */
public class Nothing {

    // the welcome line of the handout
    static final String WELCOME = "******* WELCOME TO BLACKJACK ********";
    // the goodbye line of the handout
    static final String GOODBYE = "******** GOODBYE - COME AGAIN **********";

    /** Prints the welcome line. */
    static void greet() {
        System.out.println(WELCOME);
    }

    /** Prints the total of a session in which nothing happened. */
    static void summary() {
        // nothing was won and nothing was lost
        System.out.println("You have won 0.0 Euro. Lucky you!!");
    }

    /** Prints the goodbye line. */
    static void farewell() {
        System.out.println(GOODBYE);
    }

    /** The session: a welcome, a total, a goodbye. */
    public static void main(String[] args) {
        greet();
        summary();
        farewell();
    }
}
