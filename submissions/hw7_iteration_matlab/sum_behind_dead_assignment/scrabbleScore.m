function out = scrabbleScore(mine, theirs)
% "sum" is assigned in a branch that never runs, so a flow-blind check takes it for a variable.
if false
    sum = 0;
end
myTotal = sum(mine);
theirTotal = sum(theirs);
if myTotal > theirTotal
    out = 'I am the Scrabble champion!';
elseif myTotal < theirTotal
    out = 'Beginner''s luck...';
else
    out = 'I challenge you to a rematch!';
end
