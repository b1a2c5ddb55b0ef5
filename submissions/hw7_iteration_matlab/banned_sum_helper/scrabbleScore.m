function out = scrabbleScore(mine, theirs)
% Totals with my own helper, addUp.
myTotal = addUp(mine);
theirTotal = addUp(theirs);
if myTotal > theirTotal
    out = 'I am the Scrabble champion!';
elseif myTotal < theirTotal
    out = 'Beginner''s luck...';
else
    out = 'I challenge you to a rematch!';
end
