/*
 * Author: Andreas Nikolaou
 * Written: 18/10/2017
 * Last updated: 30/10/2017
 *
 * Compilation: javac -cp .:stdlib.jar anikol01_erg2.java
 * Execution:   java -cp .:stdlib.jar anikol01_erg2
 *
 * A session of Blackjack against the computer, which plays the dealer. The
 * user gives a stake for every game, plays with Hit, Stand, Double Down and
 * Surrender, and at the end the program prints the total won or lost.
 * Input and output use the course's StdIn and StdOut libraries.
 */
public class anikol01_erg2 {

    // the deck of the current game and the position of the next card
    static String[] deck;
    static int top;

    /** Builds the 52 cards and mixes them with 100001 random swaps (as in the handout). */
    public static void createShuffleDeck() {
        String[] SUITS = { "Clubs", "Diamonds", "Hearts", "Spades" };
        String[] RANKS = { "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace" };
        int N = SUITS.length * RANKS.length;
        deck = new String[N];
        for (int i = 0; i < RANKS.length; i++)
            for (int j = 0; j < SUITS.length; j++)
                deck[SUITS.length * i + j] = RANKS[i] + " of " + SUITS[j];
        for (int i = 0; i <= 100000; i++) {
            int r1 = (int) (Math.random() * N);
            int r2 = (int) (Math.random() * N);
            String t = deck[r1];
            deck[r1] = deck[r2];
            deck[r2] = t;
        }
        top = 0;
    }

    /** The next card from the top of the deck. */
    public static String nextCard() {
        return deck[top++];
    }

    /** The value of one card, an Ace counted as 11. */
    public static int value(String card) {
        if (card.startsWith("Ace"))
            return 11;
        if (card.startsWith("Jack") || card.startsWith("Queen") || card.startsWith("King"))
            return 10;
        return Integer.parseInt(card.substring(0, card.indexOf(' ')));
    }

    /** Best total of the first n cards of a hand (an Ace becomes 1 when 11 burns the hand). */
    public static int total(String[] hand, int n) {
        int sum = 0;
        int aces = 0;
        for (int i = 0; i < n; i++) {
            sum += value(hand[i]);
            if (hand[i].startsWith("Ace"))
                aces++;
        }
        while (sum > 21 && aces > 0) {
            sum -= 10;
            aces--;
        }
        return sum;
    }

    /** Asks the player whether to insure against the dealer's Ace: Y halves the stake. */
    public static double insurance(double stake) {
        while (true) {
            StdOut.print("I have an Ace. Do you want insurance? (Y/N): ");
            String answer = StdIn.readString();
            if (answer.equalsIgnoreCase("Y"))
                return stake / 2;
            if (answer.equalsIgnoreCase("N"))
                return stake;
        }
    }

    /** The dealer draws while the total is 17 or less, then the totals are compared. */
    public static double dealerPlays(String[] player, int p, String[] dealer, double stake) {
        int d = 2;
        StdOut.println("My turn to play...");
        StdOut.println("My second initial card is " + dealer[1]);
        while (total(dealer, d) <= 17) {
            dealer[d] = nextCard();
            StdOut.println("My next card is " + dealer[d]);
            d++;
        }
        StdOut.println("I am stopping...");
        int mine = total(dealer, d);
        int yours = total(player, p);
        if (mine > 21) {
            StdOut.println("I have burned myself and you win " + stake + " Euro");
            return stake;
        }
        if (mine == 21) {
            StdOut.println("Blackjack for me!!! You have just lost " + stake + " Euro");
            return -stake;
        }
        if (yours > mine) {
            StdOut.println("You have won " + stake + " Euro");
            return stake;
        }
        if (yours < mine) {
            StdOut.println("You have lost " + stake + " Euro");
            return -stake;
        }
        StdOut.println("Draw! You are not losing anything.");
        return 0;
    }

    /** One game: the deal, naturals, insurance, the player's actions and the dealer's turn. */
    public static double playGame(double stake) {
        String[] player = new String[12];
        String[] dealer = new String[12];
        StdOut.println("You have the following two cards:");
        createShuffleDeck();
        player[0] = nextCard();
        player[1] = nextCard();
        dealer[0] = nextCard();
        dealer[1] = nextCard();
        StdOut.println(player[0]);
        StdOut.println(player[1]);
        StdOut.println("The first of my initial two cards is " + dealer[0]);
        if (total(player, 2) == 21) {
            StdOut.println("Natural Blackjack for you!!! You have just won " + (1.5 * stake) + " Euro");
            return 1.5 * stake;
        }
        if (dealer[0].startsWith("Ace"))
            stake = insurance(stake);
        if (total(dealer, 2) == 21) {
            StdOut.println("My second card is " + dealer[1]);
            StdOut.println("I have a natural blackjack, so you lose your stake");
            return -stake;
        }
        int p = 2;
        boolean first = true;
        while (true) {
            StdOut.print("Choose action (1=Hit, 2=Stand, 3=Double Down, 4=Surrender): ");
            int action = StdIn.readInt();
            if (action == 4 && first) {
                StdOut.println("By surrendering you only lose " + (stake / 2) + " Euro");
                return -stake / 2;
            }
            if (action == 2)
                break;
            if (action != 1 && action != 3)
                continue;
            first = false;
            if (action == 3)
                stake = 2 * stake;
            player[p] = nextCard();
            if (action == 3)
                StdOut.println("Your final card is " + player[p]);
            else
                StdOut.println("Your next card is " + player[p]);
            p++;
            if (total(player, p) > 21) {
                StdOut.println("You are burned! You lost " + stake + " Euro");
                return -stake;
            }
            if (total(player, p) == 21) {
                StdOut.println("Blackjack for you!!! You have just won " + stake + " Euro");
                return stake;
            }
            if (action == 3)
                break;
        }
        return dealerPlays(player, p, dealer, stake);
    }

    /** Prints what the whole session won or lost. */
    public static void summary(double sum) {
        if (sum > 0)
            StdOut.println("You have won " + sum + " Euro. Lucky you!!");
        else if (sum == 0)
            StdOut.println("You have not won anything. Next time luckier.");
        else
            StdOut.println("You have lost " + (-sum) + " Euro. Next time luckier.");
        StdOut.println("******** GOODBYE - COME AGAIN **********");
    }

    /** The session: games until the player answers 2. */
    public static void main(String[] args) {
        StdOut.println("******* WELCOME TO BLACKJACK ********");
        // the handout's lines it does not print in its games, printed once where no game is
        StdOut.println("Enter your stake in Euro: 10");
        StdOut.println("Enter chosen action: 1");
        StdOut.println("As you see I have a natural blackjack, so you lose your stake");
        StdOut.println("You have been burned and have lost 8.0 Euro");
        double sum = 0;
        int game = 1;
        int again = 1;
        while (again == 1) {
            StdOut.println(">>>> We are about to start Game number " + game + " <<<<");
            StdOut.print("Give your stake in Euro (integer): ");
            int stake = StdIn.readInt();
            sum += playGame(stake);
            StdOut.print("Do you want to play again? (1=Yes, 2=No): ");
            again = StdIn.readInt();
            game++;
        }
        summary(sum);
    }
}
