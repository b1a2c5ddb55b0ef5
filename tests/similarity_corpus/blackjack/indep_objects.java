/*
 * EPL131 Assignment 2: Blackjack
 * Author: Eleni Christou    Written: 21/10/2017    Last updated: 30/10/2017
 * How to run: javac Game.java && java Game
 * A console game of Blackjack: the dealer is the program, the user plays and bets in Euro.
 */
import java.util.Random;
import java.util.Scanner;

class Card {
    final int rank;   // 1 = Ace ... 13 = King
    final int suit;

    Card(int rank, int suit) {
        this.rank = rank;
        this.suit = suit;
    }

    int value() {
        return rank > 10 ? 10 : rank;
    }

    public String toString() {
        String[] faces = {"", "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"};
        String[] suits = {"Spades", "Hearts", "Diamonds", "Clubs"};
        return faces[rank] + " of " + suits[suit];
    }
}

class Hand {
    private Card[] cards = new Card[15];
    private int size = 0;

    void add(Card c) {
        cards[size] = c;
        size = size + 1;
    }

    Card get(int i) {
        return cards[i];
    }

    int total() {
        int t = 0;
        boolean hasAce = false;
        int i = 0;
        while (i < size) {
            t = t + cards[i].value();
            if (cards[i].rank == 1) hasAce = true;
            i = i + 1;
        }
        return (hasAce && t <= 11) ? t + 10 : t;
    }
}

public class Game {
    static Scanner kb = new Scanner(System.in);
    static Card[] deck = new Card[52];
    static int top;

    static void shuffle() {
        Random rnd = new Random();
        int k = 0;
        for (int s = 0; s < 4; s++)
            for (int r = 1; r <= 13; r++)
                deck[k++] = new Card(r, s);
        for (int i = 51; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            Card tmp = deck[i];
            deck[i] = deck[j];
            deck[j] = tmp;
        }
        top = 0;
    }

    static Card next() {
        return deck[top++];
    }

    static double result(Hand player, Hand dealer, double stake) {
        int p = player.total();
        int d = dealer.total();
        String line;
        double money;
        if (d > 21) { line = "I have burned myself and you win " + stake + " Euro"; money = stake; }
        else if (d == 21) { line = "Blackjack for me!!! You have just lost " + stake + " Euro"; money = -stake; }
        else if (p > d) { line = "You have won " + stake + " Euro"; money = stake; }
        else if (p < d) { line = "You have lost " + stake + " Euro"; money = -stake; }
        else { line = "It is a tie, you get back your " + stake + " Euro"; money = 0; }
        System.out.println(line);
        return money;
    }

    static double play(double stake) {
        shuffle();
        Hand player = new Hand(), dealer = new Hand();
        player.add(next()); player.add(next());
        dealer.add(next()); dealer.add(next());
        System.out.println(player.get(0));
        System.out.println(player.get(1));
        System.out.println("The first of my initial two cards is " + dealer.get(0));
        if (player.total() == 21) {
            System.out.println("Blackjack for you!!! You have just won " + (stake * 1.5) + " Euro");
            return stake * 1.5;
        }
        if (dealer.get(0).rank == 1) {
            double lower = stake / 2, s;
            do {
                System.out.print("Dealer shows an Ace. Enter your insured stake (" + lower + " - " + stake + "): ");
                s = kb.nextDouble();
            } while (!(s >= lower && s <= stake));
            stake = s;
        }
        if (dealer.total() == 21) {
            System.out.println("My second card is " + dealer.get(1));
            System.out.println("As you see I have a natural blackjack, so you lose your stake");
            return -stake;
        }
        boolean firstMove = true, done = false;
        while (!done) {
            System.out.print("Enter chosen action: ");
            int a = kb.nextInt();
            if (a == 4 && firstMove) {
                System.out.println("By surrendering you only lose " + (stake / 2) + " Euro");
                return -(stake / 2);
            } else if (a == 2) {
                done = true;
            } else if (a == 1 || a == 3) {
                if (a == 3) stake += stake;
                Card c = next();
                player.add(c);
                System.out.println((a == 1 ? "Your next card is " : "Your final card is ") + c);
                firstMove = false;
                if (player.total() > 21) {
                    System.out.println("You have been burned and have lost " + stake + " Euro");
                    return -stake;
                } else if (player.total() == 21) {
                    System.out.println("Blackjack for you!!! You have just won " + stake + " Euro");
                    return stake;
                }
                done = (a == 3);
            }
        }
        System.out.println("My turn to play...");
        System.out.println("My second initial card is " + dealer.get(1));
        for (Card c = null; dealer.total() <= 17; ) {
            c = next();
            dealer.add(c);
            System.out.println("My next card is " + c);
        }
        System.out.println("I am stopping...");
        return result(player, dealer, stake);
    }

    public static void main(String[] args) {
        System.out.println("******* WELCOME TO BLACKJACK ********");
        double money = 0;
        int n = 1;
        while (true) {
            System.out.println(">>>> We are about to start Game number " + n + " <<<<");
            System.out.print("Enter your stake in Euro: ");
            money = money + play(kb.nextDouble());
            n = n + 1;
            if (kb.nextInt() != 1) break;
        }
        System.out.println(money >= 0 ? "You have won " + money + " Euro. Lucky you!!" : "You have lost " + (-money) + " Euro. Next time luckier.");
        System.out.println("******** GOODBYE - COME AGAIN **********");
    }
}
