/**
 * Author: Red Team
 * Written: 03/12/2026
 * Last updated: 03/12/2026
 *
 * Compilation: javac Confuse.java
 * Execution: java Confuse
 *
 * Deals one hand of Blackjack and then asks for an action again and again, whatever the answer.
 */
import java.util.Scanner;

public class Confuse {

    // the keyboard
    static Scanner input = new Scanner(System.in);

    /** Prints the welcome line and the banner of the first game. */
    static void greet() {
        System.out.println("******* WELCOME TO BLACKJACK ********");
        System.out.println(">>>> We are about to start Game number 1 <<<<");
    }

    /** Shows the opening cards. */
    static void deal() {
        System.out.println("9 of Hearts");
        System.out.println("7 of Clubs");
        System.out.println("The first of my initial two cards is 5 of Spades");
    }

    /** Asks for an action, for ever. */
    static void ask() {
        while (true) {
            System.out.print("Enter chosen action: ");
            input.nextLine();
        }
    }

    /** The session. */
    public static void main(String[] args) {
        greet();
        System.out.print("Enter your stake in Euro: ");
        input.nextLine();
        deal();
        ask();
    }
}
