function out = scrabbleScore(mine, theirs)
% Total both players' scores with loops (sum is banned) and name the winner.
myTotal = 0;
for k = 1:length(mine)
    myTotal = myTotal + mine(k);
end
theirTotal = 0;
for k = 1:length(theirs)
    theirTotal = theirTotal + theirs(k);
end
if myTotal > theirTotal
    out = 'I am the Scrabble champion!';
elseif myTotal < theirTotal
    out = 'Beginner''s luck...';
else
    out = 'I challenge you to a rematch!';
end
