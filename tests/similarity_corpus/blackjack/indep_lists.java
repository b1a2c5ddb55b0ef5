// EPL131 - Assignment 2 (Blackjack)
// Author: Andreas Nicolaou, written 18/10/2017, last updated 27/10/2017
// Compile with: javac Blackjack.java     Run with: java Blackjack
// One player against the computer dealer; prints the money won or lost at the end.
import java.util.ArrayList;
import java.util.Collections;
import java.util.Scanner;

public class Blackjack {
    private static final String[] NAMES = {"Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"};
    private static final String[] SUITS = {"Hearts", "Spades", "Diamonds", "Clubs"};
    private static Scanner in = new Scanner(System.in);
    private static ArrayList<Integer> pack = new ArrayList<Integer>();

    // card numbers 0..51: rank is n % 13, suit is n / 13
    private static String show(int n) {
        return NAMES[n % 13] + " of " + SUITS[n / 13];
    }

    private static void newPack() {
        pack.clear();
        for (int n = 0; n < 52; n++) {
            pack.add(n);
        }
        Collections.shuffle(pack);
    }

    private static int deal(ArrayList<Integer> hand) {
        int card = pack.remove(pack.size() - 1);
        hand.add(card);
        return card;
    }

    private static int points(ArrayList<Integer> hand) {
        int sum = 0;
        boolean ace = false;
        for (int card : hand) {
            int r = card % 13;
            if (r == 0) {
                ace = true;
                sum += 1;
            } else if (r >= 9) {
                sum += 10;
            } else {
                sum += r + 1;
            }
        }
        if (ace && sum + 10 <= 21) {
            sum += 10;
        }
        return sum;
    }

    private static double dealerPlays(ArrayList<Integer> me, ArrayList<Integer> you, double bet) {
        System.out.println("My turn to play...");
        System.out.println("My second initial card is " + show(me.get(1)));
        while (points(me) <= 17) {
            System.out.println("My next card is " + show(deal(me)));
        }
        System.out.println("I am stopping...");
        int mine = points(me), yours = points(you);
        if (mine > 21) {
            System.out.println("I have burned myself and you win " + bet + " Euro");
            return bet;
        } else if (mine == 21) {
            System.out.println("Blackjack for me!!! You have just lost " + bet + " Euro");
            return -bet;
        } else if (yours > mine) {
            System.out.println("You have won " + bet + " Euro");
            return bet;
        } else if (yours < mine) {
            System.out.println("You have lost " + bet + " Euro");
            return -bet;
        }
        System.out.println("It is a tie, you get back your " + bet + " Euro");
        return 0;
    }

    private static double oneGame(double bet) {
        newPack();
        ArrayList<Integer> you = new ArrayList<Integer>();
        ArrayList<Integer> me = new ArrayList<Integer>();
        System.out.println(show(deal(you)));
        System.out.println(show(deal(you)));
        deal(me);
        deal(me);
        System.out.println("The first of my initial two cards is " + show(me.get(0)));
        if (points(you) == 21) {
            System.out.println("Blackjack for you!!! You have just won " + bet * 1.5 + " Euro");
            return bet * 1.5;
        }
        if (me.get(0) % 13 == 0) {
            double ins;
            do {
                System.out.print("Dealer shows an Ace. Enter your insured stake (" + bet / 2 + " - " + bet + "): ");
                ins = in.nextDouble();
            } while (ins > bet || ins < bet / 2);
            bet = ins;
        }
        if (points(me) == 21) {
            System.out.println("My second card is " + show(me.get(1)));
            System.out.println("As you see I have a natural blackjack, so you lose your stake");
            return -bet;
        }
        int moves = 0;
        boolean stand = false;
        while (!stand) {
            System.out.print("Enter chosen action: ");
            int choice = in.nextInt();
            switch (choice) {
                case 4:
                    if (moves == 0) {
                        System.out.println("By surrendering you only lose " + bet / 2 + " Euro");
                        return -bet / 2;
                    }
                    break;
                case 2:
                    stand = true;
                    break;
                case 1:
                case 3:
                    if (choice == 3) {
                        bet *= 2;
                    }
                    String label = choice == 3 ? "Your final card is " : "Your next card is ";
                    System.out.println(label + show(deal(you)));
                    moves++;
                    if (points(you) > 21) {
                        System.out.println("You have been burned and have lost " + bet + " Euro");
                        return -bet;
                    }
                    if (points(you) == 21) {
                        System.out.println("Blackjack for you!!! You have just won " + bet + " Euro");
                        return bet;
                    }
                    stand = choice == 3;
                    break;
                default:
                    break;
            }
        }
        return dealerPlays(me, you, bet);
    }

    public static void main(String[] args) {
        System.out.println("******* WELCOME TO BLACKJACK ********");
        double balance = 0;
        int round = 0;
        boolean again = true;
        while (again) {
            round++;
            System.out.println(">>>> We are about to start Game number " + round + " <<<<");
            System.out.print("Enter your stake in Euro: ");
            balance += oneGame(in.nextDouble());
            again = in.nextInt() == 1;
        }
        if (balance < 0) {
            System.out.println("You have lost " + -balance + " Euro. Next time luckier.");
        } else {
            System.out.println("You have won " + balance + " Euro. Lucky you!!");
        }
        System.out.println("******** GOODBYE - COME AGAIN **********");
    }
}
