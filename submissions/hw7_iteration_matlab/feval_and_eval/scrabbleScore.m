function out = scrabbleScore(mine, theirs)
% Totals through feval and eval.
myTotal = feval('sum', mine);
eval('theirTotal = sum(theirs);');
if myTotal > theirTotal
    out = 'I am the Scrabble champion!';
elseif myTotal < theirTotal
    out = 'Beginner''s luck...';
else
    out = 'I challenge you to a rematch!';
end
