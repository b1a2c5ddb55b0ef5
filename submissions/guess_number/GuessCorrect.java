/*
 * Author: Eleni Constantinou
 * Written: 02/11/2026
 * Last updated: 04/11/2026
 *
 * Compilation: javac GuessNumber.java
 * Execution:   java GuessNumber
 *
 * Guess the Number: the computer picks a number between 1 and 100, the user
 * guesses with a hint after every wrong guess, and the session ends with the
 * number of games and the average number of tries.
 */
import java.util.Scanner;

public class GuessNumber {

    // the keyboard, shared by every method
    static Scanner keyboard = new Scanner(System.in);

    /** One game against a new secret; returns the number of tries. */
    public static int playOneGame() {
        int secret = 1 + (int) (Math.random() * 100);
        int tries = 0;
        while (true) {
            System.out.print("Enter your guess: ");
            int guess = keyboard.nextInt();
            tries++;
            if (guess < secret)
                System.out.println("Too low!");
            else if (guess > secret)
                System.out.println("Too high!");
            else {
                System.out.println("Correct! You guessed it in " + tries + " tries.");
                return tries;
            }
        }
    }

    /** Asks whether to play again: true for y. */
    public static boolean again() {
        System.out.print("Play again? (y/n): ");
        return keyboard.next().equalsIgnoreCase("y");
    }

    /** Games until the user says n, then the summary. */
    public static void main(String[] args) {
        System.out.println("Welcome to Guess the Number!");
        int games = 0;
        int allTries = 0;
        do {
            System.out.println("I am thinking of a number between 1 and 100.");
            allTries += playOneGame();
            games++;
        } while (again());
        System.out.printf("You played %d games with %.1f tries on average.%n", games, (double) allTries / games);
        System.out.println("Goodbye!");
    }
}
