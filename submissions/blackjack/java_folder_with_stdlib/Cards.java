/*
 * Author: Elena Christou
 * Written: 19/10/2017
 * Last updated: 29/10/2017
 *
 * Compilation: javac Cards.java
 * Helper of Blackjack.java: the points of one card.
 */
public class Cards {

    /** Points of a card such as "Queen of Hearts"; an Ace counts 11. */
    public static int points(String card) {
        String rank = card.substring(0, card.indexOf(' '));
        if (rank.equals("Ace"))
            return 11;
        if (rank.equals("Jack") || rank.equals("Queen") || rank.equals("King"))
            return 10;
        return Integer.parseInt(rank);
    }
}
