// Blackjack, EPL131 HW2
// by K. Papadopoulos
import java.util.Scanner;

public class BJ
{

  static Scanner sc = new Scanner(System.in);
  static final boolean VERBOSE = false;
  static int played = 0;
  public static void main(String[] args)
    {
    System.out.println("******* WELCOME TO BLACKJACK ********");
    double t = 0;
    int g = 1;
    int again = 1;
    for (g = 1; again == 1; g++)
    {
      System.out.println(">>>> We are about to start Game number " + g + " <<<<");
      System.out.print("Enter your stake in Euro: ");
      double money = sc.nextDouble();
      t += game(money);
      again = sc.nextInt();
    }
    if (t >= 0)
      System.out.println("You have won " + t + " Euro. Lucky you!!");
    else
      System.out.println("You have lost " + (-t) + " Euro. Next time luckier.");
    System.out.println("******** GOODBYE - COME AGAIN **********");
  }

  public static double game(double money)
    {
    String[] d = freshDeck();
    int top = 0;
    String[] you = new String[20];
    String[] me = new String[20];
    int junk = 7;
    int youN = 0;
    int meN = 0;
    you[youN++] = d[top++];
    you[youN++] = d[top++];
    me[meN++] = d[top++];
    me[meN++] = d[top++];
    System.out.println(you[0]);
    System.out.println(you[1]);
    System.out.println("The first of my initial two cards is " + me[0]);
    if (VERBOSE)
    {
      System.out.println("deck: " + d.length);
    }
    if (score(you, 2) == 21)
    {
      System.out.println("Blackjack for you!!! You have just won " + (1.5 * money) + " Euro");
      return 1.5 * money;
    }
    if (me[0].startsWith("Ace"))
      money = insurance(money);
    if (score(me, 2) == 21)
    {
      System.out.println("My second card is " + me[1]);
      System.out.println("As you see I have a natural blackjack, so you lose your stake");
      return -money;
    }
    boolean p = true;
    while (true)
    {
      System.out.print("Enter chosen action: ");
      int act = sc.nextInt();
      if (act == 4 && p)
      {
        System.out.println("By surrendering you only lose " + (money / 2) + " Euro");
        return -money / 2;
      }
      if (act == 2)
        break;
      if (act != 1 && act != 3)
        continue;
      if (act == 3)
        money = money * 2;
      you[youN++] = d[top++];
      System.out.println((act == 3 ? "Your final card is " : "Your next card is ") + you[youN - 1]);
      p = false;
      int t = score(you, youN);
      if (t > 21)
      {
        System.out.println("You have been burned and have lost " + money + " Euro");
        return -money;
      }
      if (t == 21)
      {
        System.out.println("Blackjack for you!!! You have just won " + money + " Euro");
        return money;
      }
      if (act == 3)
        break;
    }
    System.out.println("My turn to play...");
    System.out.println("My second initial card is " + me[1]);
    for (; score(me, meN) <= 17; )
    {
      me[meN++] = d[top++];
      System.out.println("My next card is " + me[meN - 1]);
    }
    System.out.println("I am stopping...");
    return finish(score(you, youN), score(me, meN), money);
  }

  public static String[] freshDeck()
    {
    String[] S = { "Clubs", "Diamonds", "Hearts", "Spades" };
    String[] R = { "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace" };
    int ns = S.length;
    int nr = R.length;
    int t = ns * nr;
    String[] d = new String[t];
    int a = 0;
    while (a < nr)
    {
      int b = 0;
      while (b < ns)
      {
        d[ns * a + b] = R[a] + " of " + S[b];
        b++;
      }
      a++;
    }
    int k = 0;
    while (k < 50000)
    {
      int p = (int) (Math.random() * t);
      int q = (int) (Math.random() * t);
      String tmp = d[p];
      d[p] = d[q];
      d[q] = tmp;
      k = k + 1;
    }
    return d;
  }

  public static double finish(int yt, int mt, double money)
    {
    if (mt > 21)
    {
      System.out.println("I have burned myself and you win " + money + " Euro");
      return money;
    }
    if (mt == 21)
    {
      System.out.println("Blackjack for me!!! You have just lost " + money + " Euro");
      return -money;
    }
    if (yt > mt)
    {
      System.out.println("You have won " + money + " Euro");
      return money;
    }
    if (yt < mt)
    {
      System.out.println("You have lost " + money + " Euro");
      return -money;
    }
    System.out.println("It is a tie, you get back your " + money + " Euro");
    return 0.0;
  }

  public static void dump(String[] h, int c)
    {
    for (int a = 0; a < c; a++)
    {
      System.out.print(h[a] + ", ");
    }
    System.out.println();
  }

  public static int pts(String card)
    {
    String R = card.substring(0, card.indexOf(' '));
    if (R.equals("Ace"))
      return 1 + 10;
    if (R.equals("Jack") || R.equals("Queen") || R.equals("King"))
      return 10;
    return Integer.parseInt(R);
  }

  public static double insurance(double money)
    {
    double ins = -1;
    while (ins < money / 2 || ins > money)
    {
      System.out.print("Dealer shows an Ace. Enter your insured stake (" + (money / 2) + " - " + money + "): ");
      ins = sc.nextDouble();
    }
    return ins;
  }

  public static int score(String[] h, int c)
    {
    int t = 0;
    int soft = 0;
    int a = 0;
    while (a < c)
    {
      String card = h[a];
      t += pts(card);
      if (card.startsWith("Ace"))
        soft++;
      a += 1;
    }
    for (; t > 21 && soft > 0; soft--)
    {
      t -= 10;
    }
    return t;
  }
}
