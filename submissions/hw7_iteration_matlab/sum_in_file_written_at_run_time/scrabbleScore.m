function out = scrabbleScore(mine, theirs)
% Writes a helper that calls sum into the temporary folder and runs it from there: the tripwire
% once took any file outside the student's folder for Octave's library and let the call go.
folder = tempdir();
fid = fopen(fullfile(folder, 'addUp.m'), 'w');
fprintf(fid, 'function s = addUp(v)\ns = %s(v);\nend\n', char([115 117 109]));
fclose(fid);
addpath(folder);
myTotal = addUp(mine);
theirTotal = addUp(theirs);
if myTotal > theirTotal
    out = 'I am the Scrabble champion!';
elseif myTotal < theirTotal
    out = 'Beginner''s luck...';
else
    out = 'I challenge you to a rematch!';
end
