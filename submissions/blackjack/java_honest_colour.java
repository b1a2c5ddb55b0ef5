/**
 * Author: Andri Kyprianou
 * Written: 20/10/2017
 * Last updated: 29/10/2017
 *
 * Compilation: javac akypri07_erg2.java
 * Execution: java akypri07_erg2
 *
 * Plays a session of Blackjack at the console: the computer is the dealer,
 * the user is the only player, and at the end the total won or lost is shown.
 * Cards of red suits are printed in red, and a spinner turns on one line while
 * the deck is shuffled (wiped with a carriage return before the game goes on).
 */
import java.util.Scanner;

public class akypri07_erg2 {

    // the keyboard, shared by every method
    static Scanner input = new Scanner(System.in);

    // terminal colours (ANSI SGR codes)
    static final String RED = "\u001b[31m", RESET = "\u001b[0m";

    /** A card, in red for Hearts and Diamonds. */
    public static String paint(String card) {
        if (card.endsWith("Hearts") || card.endsWith("Diamonds"))
            return RED + card + RESET;
        return card;
    }

    /** A spinner on one line while the deck is shuffled, then wiped. */
    public static void spinner() {
        String frames = "|/-\\|/-\\";
        for (int i = 0; i < frames.length(); i++) {
            System.out.print("\rShuffling the deck " + frames.charAt(i));
            System.out.flush();
        }
        System.out.print("\r                    \r");
    }

    /** Builds a full deck and shuffles it with 100001 random swaps. */
    public static String[] createShuffleDeck() {
        String[] suit = { "Clubs", "Diamonds", "Hearts", "Spades" };
        String[] rank = { "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace" };
        int suits = suit.length;
        int ranks = rank.length;
        int total = suits * ranks;
        String[] deck = new String[total];
        for (int i = 0; i < ranks; i++)
            for (int j = 0; j < suits; j++)
                deck[suits * i + j] = rank[i] + " of " + suit[j];
        for (int i = 0; i <= 100000; i++) {
            int first = (int) (Math.random() * total);
            int second = (int) (Math.random() * total);
            String temp = deck[first];
            deck[first] = deck[second];
            deck[second] = temp;
        }
        return deck;
    }

    /** Points of one card; an Ace counts 11 here. */
    public static int cardValue(String card) {
        String rank = card.substring(0, card.indexOf(' '));
        if (rank.equals("Ace"))
            return 11;
        if (rank.equals("Jack") || rank.equals("Queen") || rank.equals("King"))
            return 10;
        return Integer.parseInt(rank);
    }

    /** Best total of a hand: Aces count 1 when 11 would burn it. */
    public static int handTotal(String[] hand, int count) {
        int total = 0;
        int aces = 0;
        for (int i = 0; i < count; i++) {
            total += cardValue(hand[i]);
            if (hand[i].startsWith("Ace"))
                aces++;
        }
        while (total > 21 && aces > 0) {
            total -= 10;
            aces--;
        }
        return total;
    }

    /** Plays one game and returns the money won (negative when lost). */
    public static double playGame(double stake) {
        String[] deck = createShuffleDeck();
        int next = 0;
        String[] player = new String[12];
        String[] dealer = new String[12];
        int playerCount = 0;
        int dealerCount = 0;
        player[playerCount++] = deck[next++];
        player[playerCount++] = deck[next++];
        dealer[dealerCount++] = deck[next++];
        dealer[dealerCount++] = deck[next++];
        System.out.println(paint(player[0]));
        System.out.println(paint(player[1]));
        System.out.println("The first of my initial two cards is " + paint(dealer[0]));
        // a natural blackjack of the player pays one and a half times the stake
        if (handTotal(player, 2) == 21) {
            System.out.println("Blackjack for you!!! You have just won " + (1.5 * stake) + " Euro");
            return 1.5 * stake;
        }
        if (dealer[0].startsWith("Ace"))
            stake = askInsurance(stake);
        if (handTotal(dealer, 2) == 21) {
            System.out.println("My second card is " + paint(dealer[1]));
            System.out.println("As you see I have a natural blackjack, so you lose your stake");
            return -stake;
        }
        // the player's actions
        boolean first = true;
        while (true) {
            System.out.print("Enter chosen action: ");
            int action = input.nextInt();
            if (action == 4 && first) {
                System.out.println("By surrendering you only lose " + (stake / 2) + " Euro");
                return -stake / 2;
            }
            if (action == 2)
                break;
            if (action != 1 && action != 3)
                continue;
            if (action == 3)
                stake = stake * 2;
            player[playerCount++] = deck[next++];
            System.out.println((action == 3 ? "Your final card is " : "Your next card is ") + paint(player[playerCount - 1]));
            first = false;
            int total = handTotal(player, playerCount);
            if (total > 21) {
                System.out.println("You have been burned and have lost " + stake + " Euro");
                return -stake;
            }
            if (total == 21) {
                System.out.println("Blackjack for you!!! You have just won " + stake + " Euro");
                return stake;
            }
            if (action == 3)
                break;
        }
        // the dealer's turn: draw while 17 or less
        System.out.println("My turn to play...");
        System.out.println("My second initial card is " + paint(dealer[1]));
        while (handTotal(dealer, dealerCount) <= 17) {
            dealer[dealerCount++] = deck[next++];
            System.out.println("My next card is " + paint(dealer[dealerCount - 1]));
        }
        System.out.println("I am stopping...");
        return settle(handTotal(player, playerCount), handTotal(dealer, dealerCount), stake);
    }

    /** The dealer shows an Ace: the player may lower the stake down to half. */
    public static double askInsurance(double stake) {
        double newStake;
        do {
            System.out.print("Dealer shows an Ace. Enter your insured stake (" + (stake / 2) + " - " + stake + "): ");
            newStake = input.nextDouble();
        } while (newStake < stake / 2 || newStake > stake);
        return newStake;
    }

    /** Compares the totals after the dealer stopped. */
    public static double settle(int playerTotal, int dealerTotal, double stake) {
        if (dealerTotal > 21) {
            System.out.println("I have burned myself and you win " + stake + " Euro");
            return stake;
        }
        if (dealerTotal == 21) {
            System.out.println("Blackjack for me!!! You have just lost " + stake + " Euro");
            return -stake;
        }
        if (playerTotal > dealerTotal) {
            System.out.println("You have won " + stake + " Euro");
            return stake;
        }
        if (playerTotal < dealerTotal) {
            System.out.println("You have lost " + stake + " Euro");
            return -stake;
        }
        System.out.println("It is a tie, you get back your " + stake + " Euro");
        return 0;
    }

    /** The session: games until the player answers 2 (or 0). */
    public static void main(String[] args) {
        System.out.println("******* WELCOME TO BLACKJACK ********");
        double total = 0;
        int game = 1;
        int answer;
        do {
            spinner();
            System.out.println(">>>> We are about to start Game number " + game + " <<<<");
            System.out.print("Enter your stake in Euro: ");
            double stake = input.nextDouble();
            total += playGame(stake);
            game++;
            answer = input.nextInt();
        } while (answer == 1);
        if (total >= 0)
            System.out.println("You have won " + total + " Euro. Lucky you!!");
        else
            System.out.println("You have lost " + (-total) + " Euro. Next time luckier.");
        System.out.println("******** GOODBYE - COME AGAIN **********");
    }
}
