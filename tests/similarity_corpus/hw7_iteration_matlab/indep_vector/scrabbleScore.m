function result = scrabbleScore(p1, p2)
% scrabbleScore: who won the scrabble game (sum is not allowed)
s = [0 0];
lists = {p1, p2};
for who = 1:2
    w = lists{who};
    while ~isempty(w)
        s(who) = s(who) + w(end);
        w(end) = [];
    end
end
msgs = {'Beginner''s luck...', 'I challenge you to a rematch!', 'I am the Scrabble champion!'};
result = msgs{sign(s(1) - s(2)) + 2};
end
