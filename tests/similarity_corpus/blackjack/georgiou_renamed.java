/**
 * Author: Maria Georgiou
 * Written: 20/10/2017
 * Last updated: 29/10/2017
 *
 * Compilation: javac mgeorg01_erg2.java
 * Execution: java mgeorg01_erg2
 *
 * Plays a session of Blackjack at the console: the computer is the dealer,
 * the user is the only player, and at the end the total won or lost is shown.
 */
import java.util.Scanner;

public class erg2_kpapa02 {

    // the keyboard, shared by every method
    static Scanner keyboard = new Scanner(System.in);

    /** Builds a full deck and shuffles it with 100001 random swaps. */
    public static String[] makeDeck() {
        String[] suitNames = { "Clubs", "Diamonds", "Hearts", "Spades" };
        String[] rankNames = { "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace" };
        int nSuits = suitNames.length;
        int nRanks = rankNames.length;
        int sum = nSuits * nRanks;
        String[] cards = new String[sum];
        for (int x = 0; x < nRanks; x++)
            for (int y = 0; y < nSuits; y++)
                cards[nSuits * x + y] = rankNames[x] + " of " + suitNames[y];
        for (int x = 0; x <= 100000; x++) {
            int a = (int) (Math.random() * sum);
            int b = (int) (Math.random() * sum);
            String swap = cards[a];
            cards[a] = cards[b];
            cards[b] = swap;
        }
        return cards;
    }

    /** Points of one card; an Ace counts 11 here. */
    public static int valueOf(String card) {
        String rankNames = card.substring(0, card.indexOf(' '));
        if (rankNames.equals("Ace"))
            return 11;
        if (rankNames.equals("Jack") || rankNames.equals("Queen") || rankNames.equals("King"))
            return 10;
        return Integer.parseInt(rankNames);
    }

    /** Best total of a hand: Aces count 1 when 11 would burn it. */
    public static int bestTotal(String[] cs, int n) {
        int sum = 0;
        int numAces = 0;
        for (int x = 0; x < n; x++) {
            sum += valueOf(cs[x]);
            if (cs[x].startsWith("Ace"))
                numAces++;
        }
        while (sum > 21 && numAces > 0) {
            sum -= 10;
            numAces--;
        }
        return sum;
    }

    /** Plays one game and returns the money won (negative when lost). */
    public static double round(double bet) {
        String[] cards = makeDeck();
        int pos = 0;
        String[] mine = new String[12];
        String[] house = new String[12];
        int myN = 0;
        int houseN = 0;
        mine[myN++] = cards[pos++];
        mine[myN++] = cards[pos++];
        house[houseN++] = cards[pos++];
        house[houseN++] = cards[pos++];
        System.out.println(mine[0]);
        System.out.println(mine[1]);
        System.out.println("The first of my initial two cards is " + house[0]);
        // a natural blackjack of the player pays one and a half times the stake
        if (bestTotal(mine, 2) == 21) {
            System.out.println("Blackjack for you!!! You have just won " + (1.5 * bet) + " Euro");
            return 1.5 * bet;
        }
        if (house[0].startsWith("Ace"))
            bet = insure(bet);
        if (bestTotal(house, 2) == 21) {
            System.out.println("My second card is " + house[1]);
            System.out.println("As you see I have a natural blackjack, so you lose your stake");
            return -bet;
        }
        // the player's actions
        boolean a = true;
        while (true) {
            System.out.print("Enter chosen action: ");
            int move = keyboard.nextInt();
            if (move == 4 && a) {
                System.out.println("By surrendering you only lose " + (bet / 2) + " Euro");
                return -bet / 2;
            }
            if (move == 2)
                break;
            if (move != 1 && move != 3)
                continue;
            if (move == 3)
                bet = bet * 2;
            mine[myN++] = cards[pos++];
            System.out.println((move == 3 ? "Your final card is " : "Your next card is ") + mine[myN - 1]);
            a = false;
            int sum = bestTotal(mine, myN);
            if (sum > 21) {
                System.out.println("You have been burned and have lost " + bet + " Euro");
                return -bet;
            }
            if (sum == 21) {
                System.out.println("Blackjack for you!!! You have just won " + bet + " Euro");
                return bet;
            }
            if (move == 3)
                break;
        }
        // the dealer's turn: draw while 17 or less
        System.out.println("My turn to play...");
        System.out.println("My second initial card is " + house[1]);
        while (bestTotal(house, houseN) <= 17) {
            house[houseN++] = cards[pos++];
            System.out.println("My next card is " + house[houseN - 1]);
        }
        System.out.println("I am stopping...");
        return payout(bestTotal(mine, myN), bestTotal(house, houseN), bet);
    }

    /** The dealer shows an Ace: the player may lower the stake down to half. */
    public static double insure(double bet) {
        double lowered;
        do {
            System.out.print("Dealer shows an Ace. Enter your insured stake (" + (bet / 2) + " - " + bet + "): ");
            lowered = keyboard.nextDouble();
        } while (lowered < bet / 2 || lowered > bet);
        return lowered;
    }

    /** Compares the totals after the dealer stopped. */
    public static double payout(int myPts, int housePts, double bet) {
        if (housePts > 21) {
            System.out.println("I have burned myself and you win " + bet + " Euro");
            return bet;
        }
        if (housePts == 21) {
            System.out.println("Blackjack for me!!! You have just lost " + bet + " Euro");
            return -bet;
        }
        if (myPts > housePts) {
            System.out.println("You have won " + bet + " Euro");
            return bet;
        }
        if (myPts < housePts) {
            System.out.println("You have lost " + bet + " Euro");
            return -bet;
        }
        System.out.println("It is a tie, you get back your " + bet + " Euro");
        return 0;
    }

    /** The session: games until the player answers 2 (or 0). */
    public static void main(String[] args) {
        System.out.println("******* WELCOME TO BLACKJACK ********");
        double sum = 0;
        int gameNo = 1;
        int reply;
        do {
            System.out.println(">>>> We are about to start Game number " + gameNo + " <<<<");
            System.out.print("Enter your stake in Euro: ");
            double bet = keyboard.nextDouble();
            sum += round(bet);
            gameNo++;
            reply = keyboard.nextInt();
        } while (reply == 1);
        if (sum >= 0)
            System.out.println("You have won " + sum + " Euro. Lucky you!!");
        else
            System.out.println("You have lost " + (-sum) + " Euro. Next time luckier.");
        System.out.println("******** GOODBYE - COME AGAIN **********");
    }
}
